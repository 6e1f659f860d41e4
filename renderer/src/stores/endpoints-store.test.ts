// @vitest-environment node
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../server/api-client/api-client.ts';
import { startTestEngine, type TestEngine } from '../../../tests/helpers/test-engine.ts';
import { createEndpointsStore } from './endpoints-store.ts';
import { createNoticesStore } from './notices-store.ts';

/** What the forms need of the endpoints store: the engine's refusal in words, the test delivery's log id. */
describe('the endpoints store', () => {
  let t: TestEngine;

  beforeAll(async () => {
    t = await startTestEngine();
  });
  afterAll(() => t.stop());

  const makeStore = () => {
    const notices = createNoticesStore();
    const client = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    return { store: createEndpointsStore(client, notices.getState()), notices };
  };

  test('a refused create and update give the engine’s sentence to the form, and to the notices', async () => {
    const { store, notices } = makeStore();
    const said: string[] = [];
    const created = await store
      .getState()
      .create(
        { name: 'x', validationType: 'none', customResponse: { status: 204, body: 'x' } },
        (m) => void said.push(m),
      );
    expect(created).toBeNull();
    const ep = await store.getState().create({ name: 'y', validationType: 'none' });
    const ok = await store
      .getState()
      .update(
        ep!.id,
        { customResponse: { status: 200, headers: [{ name: 'Content-Length', value: '1' }] } },
        (m) => void said.push(m),
      );
    expect(ok).toBe(false);
    expect(said).toEqual([
      'Invalid request body "customResponse.body": body must be empty: a 204 answer carries none.',
      'Invalid request body "customResponse.headers.0.name": "Content-Length" cannot be set: the receiver writes Content-Length, the connection headers and Hookscope-Log-Id itself.',
    ]);
    expect(notices.getState().notices.filter((n) => n.kind === 'error')).toHaveLength(2);
  });

  test('a saved custom response is in the list; null takes it away', async () => {
    const { store } = makeStore();
    const ep = (await store.getState().create({ name: 'z', validationType: 'none' }))!;
    const answer = { status: 202, headers: [{ name: 'X-A', value: '1' }], body: 'later', delayMs: 0 };
    expect(await store.getState().update(ep.id, { customResponse: answer })).toBe(true);
    expect(store.getState().endpoints.find((e) => e.id === ep.id)!.customResponse).toEqual(answer);
    expect(await store.getState().update(ep.id, { customResponse: null })).toBe(true);
    expect(store.getState().endpoints.find((e) => e.id === ep.id)!.customResponse).toBeNull();
  });

  test('a test delivery answers the id of the log it stored; a refused one null', async () => {
    const { store, notices } = makeStore();
    const ep = (await store
      .getState()
      .create({ name: 'signed', validationType: 'hmac_sha256', webhookSecret: 's3cret' }))!;
    const logId = await store.getState().sendTest(ep.id);
    expect(logId).toMatch(/^log_/);
    const log = await t.api<{ data: { verification: { result: string } } }>('GET', `/api/webhooks/logs/${logId}`);
    expect(log.body.data.verification.result).toBe('valid');
    await store.getState().update(ep.id, { isActive: false });
    expect(await store.getState().sendTest(ep.id)).toBeNull();
    expect(notices.getState().notices.at(-1)!.text).toBe(
      `Sending a test delivery failed: Endpoint ${ep.id} is inactive, so its receiver would answer 410 and store nothing; activate it to send a test webhook. (ENDPOINT_INACTIVE)`,
    );
  });
});
