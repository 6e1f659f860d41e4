import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sign as githubSign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { ManualClock } from '../../server/support/clock.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { openSse, type SseStream } from '../helpers/sse-stream.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const stripe = new Stripe('sk_test_unused');
const T0 = Date.parse('2026-11-23T10:00:00Z');
const HOUR = 3_600_000;
const GRACE = 24 * HOUR;
/** The secret typed wrong at creation, and the one Stripe really signs with. */
const WRONG = 'whsec_typed_wrong_at_creation_0001';
const RIGHT = 'whsec_stripe_dashboard_secret_0002';
const GITHUB_OLD = 'github-old-secret-0003';
const GITHUB_NEW = "It's a Secret to Everybody 0004";
const SW_OLD = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SW_NEW = 'whsec_c2Vjb25kLXN0YW5kYXJkLXdlYmhvb2tzLWtleQ==';
const NOT_BASE64 = 'whsec_not base64 at all!';
const ALL_SECRETS = [WRONG, RIGHT, GITHUB_OLD, GITHUB_NEW, SW_OLD, SW_NEW, NOT_BASE64];

/**
 * A ManualClock that, while armed, throws when the endpoints service reads it
 * (authentication reads it too, and would answer 401): an engine fault in the
 * middle of setting a secret, on a request that carries one.
 */
class ArmableClock extends ManualClock {
  armed = false;
  override now(): number {
    if (this.armed && new Error().stack?.includes('EndpointsService.')) throw new Error('the clock broke');
    return super.now();
  }
}

describe('PUT /api/endpoints/:endpointId/secret: fix a signed endpoint in place', () => {
  const clock = new ArmableClock(T0);
  let dir: string;
  let t: TestEngine;
  let events: SseStream;
  let stopped = false;
  /** Every API answer, to prove that none carries a secret. */
  const seen: string[] = [];

  before(async () => {
    dir = await makeTempDir();
    t = await startTestEngine({}, { clock }, dir);
    events = await openSse(`${t.engine.apiUrl}/api/events`, { authorization: `Bearer ${t.token}` });
    await events.waitForText(/retry: \d+/);
  });
  after(async () => {
    events.close();
    if (!stopped) await t.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const api = async (method: string, path: string, init: { body?: unknown; token?: string } = {}) => {
    const r = await t.api(method, path, init);
    seen.push(JSON.stringify(r.body));
    return r;
  };
  const putSecret = (id: string, body: unknown, token?: string) =>
    api('PUT', `/api/endpoints/${id}/secret`, { body, token });
  const endpoint = async (id: string) => (await api('GET', `/api/endpoints/${id}`)).body.data;
  const verification = async (logId: string) =>
    (await api('GET', `/api/webhooks/logs/${logId}`)).body.data.verification;
  const iso = (ms: number) => new Date(ms).toISOString();
  const seconds = () => Math.floor(clock.now() / 1000);

  /** Sends a delivery and answers the status the sender saw and the stored log's verification. */
  const deliver = async (id: string, body: string, headers: Record<string, string>) => {
    const r = await t.deliver(`/webhook/${id}`, { body, headers: { 'content-type': 'application/json', ...headers } });
    const logId = (r.status === 200 ? r.body.data.id : r.body.error.details.logId) as string;
    return { status: r.status, logId, verification: await verification(logId) };
  };
  const stripeDelivery = (id: string, secret: string, body = '{"id":"evt_1","type":"invoice.paid"}') =>
    deliver(id, body, {
      'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: seconds() }),
    });
  const changes = (endpointId: string) =>
    events
      .events()
      .filter((e) => e.event === 'endpoint.changed')
      .map((e) => JSON.parse(e.data) as { endpointId: string; change: string })
      .filter((d) => d.endpointId === endpointId)
      .map((d) => d.change);
  /** Every event about the endpoint has arrived once a later change (a rename) has. */
  const settledChanges = async (endpointId: string): Promise<string[]> => {
    const r = await api('PATCH', `/api/endpoints/${endpointId}`, { body: { description: 'marker' } });
    assert.equal(r.status, 200);
    await events.waitFor(
      (e) => e.event === 'endpoint.changed' && e.data.includes(endpointId) && /"updated"/.test(e.data),
    );
    return changes(endpointId);
  };

  test('a Stripe endpoint created with a wrong secret: set the right one, and the next delivery on the same URL verifies', async () => {
    const id = await t.endpoint({ name: 'Stripe typo', validationType: 'stripe', webhookSecret: WRONG });
    const before = await endpoint(id);

    const refused = await stripeDelivery(id, RIGHT);
    assert.equal(refused.status, 400);
    assert.equal(refused.verification.result, 'invalid');
    assert.equal(refused.verification.reason, 'no_matching_signature');

    const setAt = clock.now();
    const r = await putSecret(id, { webhookSecret: RIGHT });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { success: true, data: { id, previousSecretExpiresAt: iso(setAt + GRACE) } });

    const afterSet = await endpoint(id);
    assert.equal(afterSet.url, before.url, 'the receiving URL stays the same');
    assert.equal(afterSet.localUrl, before.localUrl);
    assert.equal(afterSet.hasSecret, true);
    assert.equal(afterSet.previousSecretExpiresAt, iso(setAt + GRACE));
    assert.equal(afterSet.updatedAt, iso(setAt));

    const verified = await stripeDelivery(id, RIGHT);
    assert.equal(verified.status, 200);
    assert.deepEqual([verified.verification.result, verified.verification.matchedSecret], ['valid', 'current']);

    // The old secret keeps verifying until the grace period ends, and not a millisecond after.
    clock.set(setAt + GRACE - 1);
    const inGrace = await stripeDelivery(id, WRONG);
    assert.equal(inGrace.status, 200);
    assert.deepEqual([inGrace.verification.result, inGrace.verification.matchedSecret], ['valid', 'previous']);
    clock.set(setAt + GRACE);
    const late = await stripeDelivery(id, WRONG);
    assert.equal(late.status, 400);
    assert.equal(late.verification.reason, 'no_matching_signature');
    assert.equal((await endpoint(id)).previousSecretExpiresAt, null, 'the grace period is over');
    assert.equal((await stripeDelivery(id, RIGHT)).status, 200);

    // Explain still recognises a sender stuck on the replaced secret.
    const analysis = await api('POST', `/api/webhooks/logs/${late.logId}/analyze`);
    assert.equal(analysis.status, 200);
    const cause = analysis.body.data.causes[0];
    assert.equal(cause.code, 'previous_secret');
    assert.deepEqual(
      cause.evidence.find((e: { label?: string }) => e.label === 'Secret rotated at'),
      { label: 'Secret rotated at', value: iso(setAt) },
    );

    assert.deepEqual(await settledChanges(id), ['created', 'secret_set', 'updated']);
  });

  test('GitHub and Standard Webhooks endpoints take their sender’s new secret, checked with their own signers', async () => {
    const body = '{"zen":"Keep it logically awesome."}';
    const gh = await t.endpoint({ name: 'gh', validationType: 'github', webhookSecret: GITHUB_OLD });
    const ghDelivery = async (secret: string) =>
      deliver(gh, body, { 'x-github-event': 'ping', 'x-hub-signature-256': await githubSign(secret, body) });
    assert.equal((await ghDelivery(GITHUB_NEW)).status, 400);
    const setAt = clock.now();
    assert.deepEqual((await putSecret(gh, { webhookSecret: GITHUB_NEW })).body.data, {
      id: gh,
      previousSecretExpiresAt: iso(setAt + GRACE),
    });
    assert.equal((await ghDelivery(GITHUB_NEW)).verification.matchedSecret, 'current');
    assert.equal((await ghDelivery(GITHUB_OLD)).verification.matchedSecret, 'previous');

    const sw = await t.endpoint({ name: 'sw', validationType: 'standard_webhooks', webhookSecret: SW_OLD });
    const swDelivery = (secret: string) =>
      deliver(sw, body, {
        'webhook-id': 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
        'webhook-timestamp': String(seconds()),
        'webhook-signature': new Webhook(secret).sign('msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', new Date(clock.now()), body),
      });
    const bad = await putSecret(sw, { webhookSecret: NOT_BASE64 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
    assert.equal(
      bad.body.error.message,
      'webhookSecret for standard_webhooks must be whsec_<base64> or plain base64 (padded, decoding to at least 1 byte), as the sender shows it.',
    );
    assert.deepEqual(bad.body.error.details, { field: 'webhookSecret' });
    assert.equal((await putSecret(sw, { webhookSecret: SW_NEW })).status, 200);
    assert.equal((await swDelivery(SW_NEW)).verification.matchedSecret, 'current');
    assert.equal((await swDelivery(SW_OLD)).verification.matchedSecret, 'previous');
  });

  test('setting the secret the endpoint already has changes nothing: no new grace period, no event', async () => {
    const id = await t.endpoint({ name: 'twice', validationType: 'stripe', webhookSecret: WRONG });
    const setAt = clock.now();
    assert.equal((await putSecret(id, { webhookSecret: RIGHT })).status, 200);

    clock.advance(HOUR);
    const again = await putSecret(id, { webhookSecret: RIGHT });
    assert.equal(again.status, 200);
    // The first change's grace keeps running: WRONG, which a sender may still use, is not pushed out by RIGHT.
    assert.deepEqual(again.body.data, { id, previousSecretExpiresAt: iso(setAt + GRACE) });
    const e = await endpoint(id);
    assert.equal(e.previousSecretExpiresAt, iso(setAt + GRACE));
    assert.equal(e.updatedAt, iso(setAt));
    assert.equal((await stripeDelivery(id, WRONG)).verification.matchedSecret, 'previous');
    assert.equal((await stripeDelivery(id, RIGHT)).verification.matchedSecret, 'current');

    // Once the grace is over, the same secret again still starts none.
    clock.set(setAt + GRACE);
    assert.deepEqual((await putSecret(id, { webhookSecret: RIGHT })).body.data, { id, previousSecretExpiresAt: null });
    assert.deepEqual(await settledChanges(id), ['created', 'secret_set', 'updated']);
  });

  test('bad input is a 400 naming webhookSecret, and changes nothing', async () => {
    const id = await t.endpoint({ name: 'strict', validationType: 'stripe', webhookSecret: RIGHT });
    const cases: [unknown, string][] = [
      [undefined, 'Invalid request body: The request body must be a JSON object { webhookSecret }.'],
      [{}, 'Invalid request body "webhookSecret": webhookSecret is required.'],
      [{ webhookSecret: null }, 'Invalid request body "webhookSecret": webhookSecret must be a string.'],
      [{ webhookSecret: 42 }, 'Invalid request body "webhookSecret": webhookSecret must be a string.'],
      [{ webhookSecret: '' }, 'Invalid request body "webhookSecret": webhookSecret must not be empty.'],
      [
        { webhookSecret: `whsec_${'x'.repeat(995)}` },
        'Invalid request body "webhookSecret": webhookSecret must be at most 1000 characters.',
      ],
    ];
    for (const [body, message] of cases) {
      const r = await putSecret(id, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error.code, 'VALIDATION_ERROR');
      assert.equal(r.body.error.message, message);
    }
    const e = await endpoint(id);
    assert.equal(e.previousSecretExpiresAt, null);
    assert.equal((await stripeDelivery(id, RIGHT)).verification.matchedSecret, 'current');
    assert.deepEqual(await settledChanges(id), ['created', 'updated']);
  });

  test('an endpoint of type none has no secret to set: 409 with the reason', async () => {
    const id = await t.endpoint({ name: 'open', validationType: 'none' });
    const r = await putSecret(id, { webhookSecret: RIGHT });
    assert.equal(r.status, 409);
    assert.deepEqual(r.body.error, {
      code: 'SECRET_NOT_APPLICABLE',
      message: `Endpoint ${id} checks no signature (validationType none), so it has no secret to set; to verify deliveries, create an endpoint of a signed type (stripe, github, shopify, slack, standard_webhooks, hmac_sha256).`,
      details: { validationType: 'none' },
    });
    assert.equal((await endpoint(id)).hasSecret, false);
  });

  test("another account's endpoint answers 404 exactly like a missing one, and keeps its secret", async () => {
    const id = await t.endpoint({ name: 'mine', validationType: 'stripe', webhookSecret: RIGHT });
    const other = await t.engine.issueToken('mallory');
    const r = await putSecret(id, { webhookSecret: WRONG }, other);
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, {
      success: false,
      error: { code: 'ENDPOINT_NOT_FOUND', message: `Endpoint ${id} was not found.` },
    });
    const missing = await putSecret('ep_nope', { webhookSecret: WRONG });
    assert.deepEqual(missing.body, {
      success: false,
      error: { code: 'ENDPOINT_NOT_FOUND', message: 'Endpoint ep_nope was not found.' },
    });
    assert.equal((await endpoint(id)).previousSecretExpiresAt, null);
    assert.equal((await stripeDelivery(id, WRONG)).status, 400);
    assert.equal((await stripeDelivery(id, RIGHT)).verification.matchedSecret, 'current');
  });

  test('regenerate-secret still refuses provider-issued secrets, and says where to set them instead', async () => {
    const id = await t.endpoint({ name: 'stripe', validationType: 'stripe', webhookSecret: RIGHT });
    const r = await api('POST', `/api/endpoints/${id}/regenerate-secret`);
    assert.equal(r.status, 409);
    assert.equal(r.body.error.code, 'SECRET_NOT_REGENERABLE');
    assert.equal(
      r.body.error.message,
      'Stripe (Dashboard > Developers > Webhooks, "Roll secret") issues this secret, so Hookscope cannot make a new one; roll it there, then set the new secret on this endpoint (its URL stays the same).',
    );
  });

  test('no secret reaches an answer, the event stream or the engine log, not even through an engine fault', async () => {
    const id = await t.endpoint({ name: 'fault', validationType: 'stripe', webhookSecret: RIGHT });
    clock.armed = true;
    let fault;
    try {
      fault = await putSecret(id, { webhookSecret: WRONG });
    } finally {
      clock.armed = false;
    }
    assert.equal(fault.status, 500);
    const errorId = fault.body.error.details.errorId as string;

    events.close();
    await t.stop();
    stopped = true;
    const log = await readFile(join(dir, 'logs', 'engine.log'), 'utf8');
    assert.ok(log.includes(errorId), 'the fault was logged');
    for (const secret of ALL_SECRETS) {
      assert.ok(!log.includes(secret), `${secret} is in the engine log`);
      assert.ok(!events.raw().includes(secret), `${secret} is in the event stream`);
      for (const body of seen) assert.ok(!body.includes(secret), `${secret} is in an answer: ${body}`);
    }
  });
});
