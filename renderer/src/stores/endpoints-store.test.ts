// @vitest-environment node
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import Stripe from 'stripe';
import { createApiClient } from '../../../server/api-client/api-client.ts';
import type { ApiError } from '../api/client.ts';
import { startTestEngine, type TestEngine } from '../../../tests/helpers/test-engine.ts';
import { createEndpointsStore } from './endpoints-store.ts';
import { createNoticesStore } from './notices-store.ts';

/** What the forms need of the endpoints store: the engine's refusal for the form alone, the secret set, the test delivery's log id. */
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

  test('a refused create and update go to the form that passed `refused`, and only there; without one, to the notices', async () => {
    const { store, notices } = makeStore();
    const said: unknown[] = [];
    const created = await store
      .getState()
      .create(
        { name: 'x', validationType: 'none', customResponse: { status: 204, body: 'x' } },
        (e) => void said.push(e),
      );
    expect(created).toBeNull();
    const ep = await store.getState().create({ name: 'y', validationType: 'none' });
    const ok = await store
      .getState()
      .update(
        ep!.id,
        { customResponse: { status: 200, headers: [{ name: 'Content-Length', value: '1' }] } },
        (e) => void said.push(e),
      );
    expect(ok).toBe(false);
    // The engine's refusal as it came, so the form can say it in its own words under the box it names.
    expect(
      said.map((e) => [
        (e as ApiError).code,
        ((e as ApiError).details as { issues: { field: string }[] }).issues[0]!.field,
      ]),
    ).toEqual([
      ['VALIDATION_ERROR', 'customResponse.body'],
      ['VALIDATION_ERROR', 'customResponse.headers.0.name'],
    ]);
    // Said once: the form says it, so no notice says it too.
    expect(notices.getState().notices.filter((n) => n.kind === 'error')).toEqual([]);

    // No form to say it: a notice does.
    expect(await store.getState().update(ep!.id, { forwardUrl: 'localhost:3000' })).toBe(false);
    expect(
      notices
        .getState()
        .notices.filter((n) => n.kind === 'error')
        .map((n) => n.text),
    ).toEqual([
      'Saving the endpoint failed: Invalid request body "forwardUrl": forwardUrl must be an absolute http:// or https:// URL. (VALIDATION_ERROR)',
    ]);
  });

  test('setSecret keeps the URL, answers until when the previous secret verifies, and never the secret; none is refused', async () => {
    const { store, notices } = makeStore();
    const ep = (await store
      .getState()
      .create({ name: 'stripe', validationType: 'stripe', webhookSecret: 'whsec_wrong' }))!;
    const r = await store.getState().setSecret(ep.id, 'whsec_right');
    expect(r).not.toBeNull();
    const held = store.getState().endpoints.find((e) => e.id === ep.id)!;
    expect(held.url).toBe(ep.url);
    expect(held.previousSecretExpiresAt).toBe(r!.previousSecretExpiresAt);
    // About 24 h from now (the default grace period), read back from the engine too.
    expect(Date.parse(r!.previousSecretExpiresAt!) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const read = await t.api<{ data: Record<string, unknown> }>('GET', `/api/endpoints/${ep.id}`);
    expect(read.body.data.previousSecretExpiresAt).toBe(r!.previousSecretExpiresAt);
    expect(JSON.stringify(r)).not.toContain('whsec_right');

    // The new secret verifies on the same URL.
    const payload = '{"id":"evt_1"}';
    const sent = await t.deliver(`/webhook/${ep.id}`, {
      body: payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_right' }),
      },
    });
    expect(sent.status).toBe(200);

    const unsigned = (await store.getState().create({ name: 'open', validationType: 'none' }))!;
    const refusals: unknown[] = [];
    expect(await store.getState().setSecret(unsigned.id, 'whsec_x', (e) => void refusals.push(e))).toBeNull();
    expect(refusals.map((e) => (e as ApiError).code)).toEqual(['SECRET_NOT_APPLICABLE']);
    expect(notices.getState().notices.filter((n) => n.kind === 'error')).toEqual([]);
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
