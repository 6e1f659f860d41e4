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
   * The created endpoint, or null when the engine refused. The refusal goes to
   * `refused` when given, for the form to say next to its fields, and then only
   * there (a message once, never also as a notice); else it is a notice.
   */
  create(input: NewEndpoint, refused?: Refused): Promise<Endpoint | null>;
  /** Whether the engine took the change; a refusal as for `create`. */
  update(id: string, patch: EndpointPatch, refused?: Refused): Promise<boolean>;
  /**
   * Sets the signing secret to the one the sender issued, on the same URL: until when
   * the previous secret still verifies (null: none does), or null when refused (as for
   * `create`). The secret is never answered back.
   */
  setSecret(
    id: string,
    webhookSecret: string,
    refused?: Refused,
  ): Promise<{ previousSecretExpiresAt: string | null } | null>;
  /** A new secret, answered once (the engine never shows it again); null when refused (said in words). */
  regenerate(id: string): Promise<string | null>;
  remove(id: string): Promise<void>;
  /** A realistic sample for the endpoint's provider, signed with its secret, through the real receiver: its log id. */
  sendTest(id: string): Promise<string | null>;
}

/** Takes a refusal (an ApiError, or no answer at all) for a form to say in its own words next to its fields. */
export type Refused = (error: unknown) => void;

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
        if (refused) refused(e);
        else notices.error('Saving the endpoint', e);
        return false;
      }
    },
    setSecret: async (id, webhookSecret, refused) => {
      try {
        const r = await client.put('/api/endpoints/{endpointId}/secret', {
          params: { path: { endpointId: id } },
          body: { webhookSecret },
        });
        const expires = r.previousSecretExpiresAt;
        set((s) => ({
          endpoints: s.endpoints.map((e) =>
            e.id === id ? { ...e, hasSecret: true, previousSecretExpiresAt: expires } : e,
          ),
        }));
        return { previousSecretExpiresAt: expires };
      } catch (e) {
        if (refused) refused(e);
        else notices.error('Saving the secret', e);
        return null;
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
        if (refused) refused(e);
        else notices.error('Creating the endpoint', e);
        return null;
      }
    },
  }));
