import { createStore } from 'zustand/vanilla';
import type { ApiClient, Endpoint, RequestBody } from '../api/client.ts';
import type { NoticesState } from './notices-store.ts';

export type NewEndpoint = RequestBody<'/api/endpoints', 'post'>;
export type EndpointPatch = RequestBody<'/api/endpoints/{endpointId}', 'patch'>;

export interface EndpointsState {
  endpoints: Endpoint[];
  loaded: boolean;
  load(): Promise<void>;
  /**
   * The created endpoint, or null when the engine refused (the error shown in words,
   * and given to `refused` so a form can say it next to its fields).
   */
  create(input: NewEndpoint, refused?: (message: string) => void): Promise<Endpoint | null>;
  update(id: string, patch: EndpointPatch, refused?: (message: string) => void): Promise<boolean>;
  /** A new secret, answered once (the engine never shows it again); null when refused (said in words). */
  regenerate(id: string): Promise<string | null>;
  remove(id: string): Promise<void>;
  /** A realistic sample for the endpoint's provider, signed with its secret, through the real receiver: its log id. */
  sendTest(id: string): Promise<string | null>;
}

/** The engine's sentence (which names the field) for a form to show beside itself. */
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const createEndpointsStore = (client: ApiClient, notices: Pick<NoticesState, 'error' | 'info'>) =>
  createStore<EndpointsState>()((set) => ({
    endpoints: [],
    loaded: false,
    load: async () => {
      try {
        const { endpoints } = await client.get('/api/endpoints');
        set({ endpoints, loaded: true });
      } catch (e) {
        notices.error('Loading endpoints', e);
      }
    },
    update: async (id, patch, refused) => {
      try {
        const updated = await client.patch('/api/endpoints/{endpointId}', {
          params: { path: { endpointId: id } },
          body: patch,
        });
        set((s) => ({ endpoints: s.endpoints.map((e) => (e.id === id ? updated : e)) }));
        return true;
      } catch (e) {
        notices.error('Saving the endpoint', e);
        refused?.(messageOf(e));
        return false;
      }
    },
    regenerate: async (id) => {
      try {
        const r = await client.post('/api/endpoints/{endpointId}/regenerate-secret', {
          params: { path: { endpointId: id } },
          body: {},
        });
        notices.info('A new secret was made; the previous one keeps working for its grace period.');
        return r.webhookSecret;
      } catch (e) {
        notices.error('Regenerating the secret', e);
        return null;
      }
    },
    remove: async (id) => {
      try {
        await client.delete('/api/endpoints/{endpointId}', { params: { path: { endpointId: id } } });
        set((s) => ({ endpoints: s.endpoints.filter((e) => e.id !== id) }));
        notices.info('Endpoint deleted, with its deliveries.');
      } catch (e) {
        notices.error('Deleting the endpoint', e);
      }
    },
    sendTest: async (id) => {
      try {
        const r = await client.post('/api/endpoints/{endpointId}/test-delivery', {
          params: { path: { endpointId: id } },
          body: {},
        });
        notices.info(`Test delivery sent: the receiver answered ${r.status}.`);
        return r.logId;
      } catch (e) {
        notices.error('Sending a test delivery', e);
        return null;
      }
    },
    create: async (input, refused) => {
      try {
        const created = await client.post('/api/endpoints', { body: input });
        set((s) => ({ endpoints: [created, ...s.endpoints.filter((e) => e.id !== created.id)] }));
        notices.info(`Endpoint "${created.name}" created.`);
        return created;
      } catch (e) {
        notices.error('Creating the endpoint', e);
        refused?.(messageOf(e));
        return null;
      }
    },
  }));
