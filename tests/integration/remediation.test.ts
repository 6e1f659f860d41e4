import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { sign as githubSign } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import { ManualClock } from '../../server/support/clock.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const stripe = new Stripe('sk_test_unused');
const STRIPE_SECRET = 'whsec_remediation_stripe_secret';
const HMAC_SECRET = 'remediation-hmac-secret';
const T0 = Date.parse('2026-11-23T10:00:00Z');

type Evidence = string | { label: string; value: string };
interface Cause {
  code: string;
  title: string;
  confidence: number;
  evidence: Evidence[];
  steps: string[];
  snippets: { node: string; python: string };
}

const evidenceValue = (c: Cause, label: string): string | undefined =>
  c.evidence.find((e): e is { label: string; value: string } => typeof e !== 'string' && e.label === label)?.value;
const hmacHex = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

describe('remediation (rules engine)', () => {
  const clock = new ManualClock(T0);
  let t: TestEngine;
  let stripeEp: string;
  let hmacEp: string;
  before(async () => {
    t = await startTestEngine({ maxBodyBytes: 4096 }, { clock });
    stripeEp = await t.endpoint({ name: 's', validationType: 'stripe', webhookSecret: STRIPE_SECRET });
    hmacEp = await t.endpoint({ name: 'h', validationType: 'hmac_sha256', webhookSecret: HMAC_SECRET });
  });
  after(() => t.stop());

  const nowSeconds = () => Math.floor(clock.now() / 1000);
  const stripeHeader = (payload: string, secret = STRIPE_SECRET, timestamp = nowSeconds()) =>
    stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

  /** Delivers, expects the receiver's refusal, and returns the stored log's id. */
  const failedDelivery = async (
    ep: string,
    body: string,
    headers: Record<string, string>,
    status = 400,
  ): Promise<string> => {
    const r = await t.deliver(`/webhook/${ep}`, { body, headers: { 'content-type': 'application/json', ...headers } });
    assert.equal(r.status, status, JSON.stringify(r.body));
    return r.body.error.details.logId as string;
  };
  const analyze = async (logId: string, path = '') => {
    const r = await t.api('POST', `/api/webhooks/logs/${logId}/analyze${path}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data as {
      logId: string;
      summary: string;
      causes: Cause[];
      engine: string;
      createdAt: string;
      cached: boolean;
    };
  };
  const topCause = async (logId: string): Promise<Cause> => {
    const a = await analyze(logId);
    assert.ok(a.causes.length > 0, a.summary);
    for (let i = 1; i < a.causes.length; i++)
      assert.ok(a.causes[i - 1]!.confidence >= a.causes[i]!.confidence, 'most confident first');
    return a.causes[0]!;
  };

  test('previous_secret: signed with the secret a regenerate replaced, after its grace, says when it was rotated', async () => {
    const ep = await t.endpoint({ name: 'rotating', validationType: 'hmac_sha256', webhookSecret: 'old-secret' });
    const rotatedAt = clock.now();
    const regen = await t.api('POST', `/api/endpoints/${ep}/regenerate-secret`, {
      body: { webhookSecret: 'new-secret' },
    });
    assert.equal(regen.status, 200);
    clock.advance(24 * 3600_000 + 10 * 60_000); // the 24 h grace plus 10 minutes
    const body = JSON.stringify({ event: 'order.paid' });
    const logId = await failedDelivery(ep, body, { 'x-webhook-signature': `sha256=${hmacHex('old-secret', body)}` });
    const c = await topCause(logId);
    assert.equal(c.code, 'previous_secret');
    assert.equal(evidenceValue(c, 'Secret rotated at'), new Date(rotatedAt).toISOString());
    assert.match(evidenceValue(c, 'Delivery received at')!, /10 min after the grace period ended/);
    assert.ok(
      !JSON.stringify(c).includes('old-secret') && !JSON.stringify(c).includes('new-secret'),
      'no secret in the analysis',
    );
  });

  test('wrong_secret: a stripe delivery signed with another whsec_ secret, explained with the stripe listen advice', async () => {
    const body = JSON.stringify({ id: 'evt_wrong', type: 'charge.succeeded' });
    const logId = await failedDelivery(stripeEp, body, {
      'stripe-signature': stripeHeader(body, 'whsec_from_another_listen_session'),
    });
    const a = await analyze(logId);
    assert.deepEqual(
      a.causes.map((c) => c.code),
      ['wrong_secret'],
    );
    const c = a.causes[0]!;
    assert.ok(c.confidence < 0.9, 'a fallback is less certain than a proven cause');
    assert.match(evidenceValue(c, 'Secret format')!, /starts with whsec_, 31 characters/);
    assert.ok(c.steps.some((s) => s.includes('stripe listen') && s.includes('whsec_')));
    assert.match(c.snippets.node, /express\.raw\(\{ type: 'application\/json' \}\)/);
    assert.match(c.snippets.node, /stripe\.webhooks\.constructEvent/);
    assert.match(c.snippets.python, /request\.get_data\(\)/);
    assert.ok(!JSON.stringify(a).includes(STRIPE_SECRET), 'the secret never appears');
  });

  test('encoding_mismatch: stripe v1 written in base64 instead of hex; evidence shows both forms', async () => {
    const body = JSON.stringify({ id: 'evt_b64', type: 'invoice.paid' });
    const good = stripeHeader(body);
    const hex = /v1=([0-9a-f]{64})/.exec(good)![1]!;
    const base64 = Buffer.from(hex, 'hex').toString('base64');
    const logId = await failedDelivery(stripeEp, body, { 'stripe-signature': `t=${nowSeconds()},v1=${base64}` });
    const c = await topCause(logId);
    assert.equal(c.code, 'encoding_mismatch');
    assert.equal(evidenceValue(c, 'Sent (base64, prefixed v1=)'), `v1=${base64}`);
    assert.equal(evidenceValue(c, 'Expected (hex, prefixed v1=)'), `v1=${hex}`);
  });

  test('body_modified: the sender signed compact JSON but sent it pretty-printed; names the variant', async () => {
    const value = { id: 'evt_pretty', data: { amount: 4200, currency: 'eur' } };
    const signed = JSON.stringify(value);
    const sent = JSON.stringify(value, null, 2);
    const logId = await failedDelivery(hmacEp, sent, { 'x-webhook-signature': hmacHex(HMAC_SECRET, signed) });
    const c = await topCause(logId);
    assert.equal(c.code, 'body_modified');
    assert.equal(evidenceValue(c, 'Variant'), 'compact_json');
    assert.equal(evidenceValue(c, 'Bytes received'), String(Buffer.byteLength(sent)));
    assert.equal(evidenceValue(c, 'Bytes signed'), String(Buffer.byteLength(signed)));
    const a = await analyze(logId);
    assert.ok(!a.causes.some((x) => x.code === 'wrong_secret'), 'a proven cause rules out the wrong-secret fallback');
  });

  test('timestamp_skew: a stale stripe delivery says how many seconds old; a future slack one says the clock is ahead', async () => {
    const body = JSON.stringify({ id: 'evt_old', type: 'customer.created' });
    const stale = await failedDelivery(stripeEp, body, {
      'stripe-signature': stripeHeader(body, STRIPE_SECRET, nowSeconds() - 906),
    });
    const c = await topCause(stale);
    assert.equal(c.code, 'timestamp_skew');
    assert.equal(evidenceValue(c, 'Skew'), '906 s old');
    assert.equal(evidenceValue(c, 'Tolerance'), '300 s');
    assert.match(c.title, /15 min 6 s/);
    assert.ok(c.steps.some((s) => s.includes('resign')));

    // Stripe's SDK accepts any future timestamp (so Hookscope does); Slack refuses one, in both directions.
    const slackSecret = 'remediation-slack-secret';
    const slackEp = await t.endpoint({ name: 'sl', validationType: 'slack', webhookSecret: slackSecret });
    const ahead = nowSeconds() + 600;
    const future = await failedDelivery(slackEp, body, {
      'x-slack-request-timestamp': String(ahead),
      'x-slack-signature': `v0=${hmacHex(slackSecret, `v0:${ahead}:${body}`)}`,
    });
    const f = await topCause(future);
    assert.equal(f.code, 'timestamp_skew');
    assert.equal(evidenceValue(f, 'Skew'), '600 s in the future');
    assert.ok(f.steps.some((s) => s.includes('NTP')));
  });

  test('wrong_provider: a GitHub delivery sent to a stripe endpoint suggests validationType github', async () => {
    const body = JSON.stringify({ action: 'opened', number: 7 });
    const logId = await failedDelivery(stripeEp, body, {
      'x-github-event': 'pull_request',
      'x-hub-signature-256': await githubSign('github-secret', body),
    });
    const c = await topCause(logId);
    assert.equal(c.code, 'wrong_provider');
    assert.equal(evidenceValue(c, 'Suggested validationType'), 'github');
    assert.equal(evidenceValue(c, 'Signature header present'), 'x-hub-signature-256');
  });

  test('wrong_header_name: the HMAC arrives in X-Signature; names that header and the signatureHeader setting', async () => {
    const body = JSON.stringify({ event: 'user.created' });
    const logId = await failedDelivery(hmacEp, body, { 'X-Signature': hmacHex(HMAC_SECRET, body) });
    const c = await topCause(logId);
    assert.equal(c.code, 'wrong_header_name');
    assert.equal(evidenceValue(c, 'Header carrying the signature'), 'x-signature');
    assert.equal(evidenceValue(c, 'Configured signatureHeader'), 'X-Webhook-Signature');
    assert.ok(c.confidence >= 0.95, 'the value verifies, so it is proven');
    assert.ok(c.steps.some((s) => s.includes('"signatureHeader": "x-signature"')));
  });

  test('payload_too_large: names the limit and the setting to raise', async () => {
    const body = JSON.stringify({ blob: 'x'.repeat(5000) });
    const logId = await failedDelivery(hmacEp, body, { 'x-webhook-signature': hmacHex(HMAC_SECRET, body) }, 413);
    const c = await topCause(logId);
    assert.equal(c.code, 'payload_too_large');
    assert.equal(evidenceValue(c, 'Limit (maxBodyBytes)'), '4096 bytes');
    assert.equal(evidenceValue(c, 'Declared Content-Length'), `${Buffer.byteLength(body)} bytes`);
    assert.equal(evidenceValue(c, 'Bytes received'), '0 bytes');
    assert.equal(c.title, `The body (${Buffer.byteLength(body)} bytes) is over the 4096-byte limit`);
    assert.ok(c.steps.some((s) => s.includes('HOOKSCOPE_MAX_BODY_BYTES')));
  });

  test('caching: the second call answers the stored analysis; refresh (query or body) recomputes it', async () => {
    const body = JSON.stringify({ id: 'evt_cache' });
    const logId = await failedDelivery(stripeEp, body, { 'stripe-signature': stripeHeader(body, 'whsec_other') });
    const first = await analyze(logId);
    assert.equal(first.cached, false);
    assert.equal(first.logId, logId);
    assert.equal(first.engine, 'rules');
    assert.equal(first.createdAt, new Date(clock.now()).toISOString());
    clock.advance(5000);
    const second = await analyze(logId);
    assert.equal(second.cached, true);
    assert.deepEqual({ ...second, cached: false }, first);
    const refreshed = await analyze(logId, '?refresh=true');
    assert.equal(refreshed.cached, false);
    assert.equal(refreshed.createdAt, new Date(clock.now()).toISOString());
    clock.advance(5000);
    const viaBody = await t.api('POST', `/api/webhooks/logs/${logId}/analyze`, { body: { refresh: true } });
    assert.equal(viaBody.body.data.cached, false);
    assert.equal(viaBody.body.data.createdAt, new Date(clock.now()).toISOString());
    assert.equal(
      (await analyze(logId)).createdAt,
      viaBody.body.data.createdAt,
      'the refreshed analysis replaced the stored one',
    );
  });

  test('409 NOT_ELIGIBLE for a successful log with no failed replay', async () => {
    const body = JSON.stringify({ id: 'evt_ok' });
    const r = await t.deliver(`/webhook/${stripeEp}`, { body, headers: { 'stripe-signature': stripeHeader(body) } });
    assert.equal(r.status, 200);
    const a = await t.api('POST', `/api/webhooks/logs/${r.body.data.id}/analyze`);
    assert.equal(a.status, 409);
    assert.equal(a.body.error.code, 'NOT_ELIGIBLE');
    assert.match(a.body.error.message, /verification passed and no replay or forward of it failed/);
  });

  test("404 for an unknown log and for another account's log", async () => {
    const body = JSON.stringify({ id: 'evt_private' });
    const logId = await failedDelivery(stripeEp, body, { 'stripe-signature': stripeHeader(body, 'whsec_nope') });
    const other = await t.engine.issueToken('someone-else');
    const foreign = await t.api('POST', `/api/webhooks/logs/${logId}/analyze`, { token: other });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'LOG_NOT_FOUND');
    assert.equal((await t.api('GET', `/api/cli/explain/${logId}`, { token: other })).status, 404);
    assert.equal((await t.api('POST', '/api/webhooks/logs/log_unknown/analyze')).status, 404);
    // The owner's analysis exists now; the other account still cannot see it.
    await analyze(logId);
    assert.equal((await t.api('POST', `/api/webhooks/logs/${logId}/analyze`, { token: other })).status, 404);
  });

  test('explain: json by default (the same analysis), text/plain with format=text', async () => {
    const body = JSON.stringify({ id: 'evt_explain' });
    const logId = await failedDelivery(stripeEp, body, {
      'stripe-signature': stripeHeader(body, STRIPE_SECRET, nowSeconds() - 1000),
    });
    const json = await t.api('GET', `/api/cli/explain/${logId}`);
    assert.equal(json.status, 200);
    assert.equal(json.body.data.causes[0].code, 'timestamp_skew');
    assert.equal(json.body.data.cached, false);
    const analyzed = await analyze(logId);
    assert.equal(analyzed.cached, true, 'explain stored the analysis like analyze does');

    const res = await fetch(`${t.engine.apiUrl}/api/cli/explain/${logId}?format=text`, {
      headers: { authorization: `Bearer ${t.token}` },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await res.text();
    assert.match(text, new RegExp(`^Analysis of ${logId} \\(rules, cached`));
    assert.match(text, /\n1\. Stale delivery: signed 16 min 40 s before it arrived \[timestamp_skew, confidence 97%\]/);
    assert.match(text, /- Skew: 1000 s old/);
    assert.match(text, /Steps:\n {3}1\) /);

    const bad = await t.api('GET', `/api/cli/explain/${logId}?format=xml`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details.issues[0].field, 'format');
  });

  test('deleting the endpoint removes its logs and analyses', async () => {
    const ep = await t.endpoint({ name: 'short-lived', validationType: 'stripe', webhookSecret: STRIPE_SECRET });
    const body = JSON.stringify({ id: 'evt_gone' });
    const logId = await failedDelivery(ep, body, { 'stripe-signature': stripeHeader(body, 'whsec_x') });
    await analyze(logId);
    assert.equal((await t.api('DELETE', `/api/endpoints/${ep}`)).status, 200);
    assert.equal((await t.api('POST', `/api/webhooks/logs/${logId}/analyze`)).status, 404);
  });
});

describe('remediation degrades on bodies it cannot walk', () => {
  let t: TestEngine;
  let ep: string;
  before(async () => {
    // The default 10 MB body limit: deep bodies up to that size must be analysed.
    t = await startTestEngine();
    ep = await t.endpoint({ name: 'deep', validationType: 'hmac_sha256', webhookSecret: HMAC_SECRET });
  });
  after(() => t.stop());

  const deliverFailed = async (body: string, signature: string): Promise<string> => {
    const r = await t.deliver(`/webhook/${ep}`, {
      body,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
    });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.error.details.logId.length > 0, true);
    return r.body.error.details.logId as string;
  };

  for (const [name, body] of [
    ['arrays nested 500,000 deep', `${'['.repeat(500_000)}${']'.repeat(500_000)}`],
    ['objects nested 1,000,000 deep', `${'{"a":'.repeat(1_000_000)}1${'}'.repeat(1_000_000)}`],
    [
      'arrays nested 5,000,000 deep (10 MB, the default body limit)',
      `${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}`,
    ],
  ] as const) {
    test(`${name}: analyze, explain, diagnose and export answer 200; the analysis has the remaining causes`, async () => {
      assert.ok(Buffer.byteLength(body) <= 10 * 1024 * 1024);
      const logId = await deliverFailed(body, `sha256=${hmacHex('some other secret', body)}`);
      const a = await t.api('POST', `/api/webhooks/logs/${logId}/analyze`);
      assert.equal(a.status, 200, JSON.stringify(a.body).slice(0, 500));
      assert.equal(a.body.data.logId, logId);
      assert.deepEqual(
        a.body.data.causes.map((c: Cause) => c.code),
        ['wrong_secret'],
      );
      // Exact: a rule skipped on the way would be named at the end.
      assert.equal(
        a.body.data.summary,
        'Verification (hmac_sha256) failed with no_matching_signature. Most likely: The sender signs with a different secret than this endpoint has (confidence 70%).',
      );

      const explained = await t.api('GET', `/api/cli/explain/${logId}?refresh=true`);
      assert.equal(explained.status, 200, JSON.stringify(explained.body).slice(0, 500));
      assert.deepEqual(
        explained.body.data.causes.map((c: Cause) => c.code),
        ['wrong_secret'],
      );
      const text = await fetch(`${t.engine.apiUrl}/api/cli/explain/${logId}?format=text`, {
        headers: { authorization: `Bearer ${t.token}` },
      });
      assert.equal(text.status, 200);
      assert.equal((await text.text()).includes('wrong_secret'), true);

      const d = await t.api('GET', `/api/cli/diagnose/${logId}`);
      assert.equal(d.status, 200, JSON.stringify(d.body).slice(0, 500));
      assert.equal(d.body.data.log.id, logId);
      assert.equal(d.body.data.verification.now.result, 'invalid');

      for (const format of ['curl', 'json', 'har', 'http']) {
        const e = await t.api('GET', `/api/webhooks/logs/${logId}/export?format=${format}`);
        assert.equal(e.status, 200, `${format}: ${JSON.stringify(e.body).slice(0, 300)}`);
      }
    });
  }

  test('a deep body is opaque to the JSON variants only: a trailing newline the sender signed is still found', async () => {
    const body = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
    const logId = await deliverFailed(body, `sha256=${hmacHex(HMAC_SECRET, `${body}\n`)}`);
    const a = await t.api('POST', `/api/webhooks/logs/${logId}/analyze`);
    assert.equal(a.status, 200, JSON.stringify(a.body).slice(0, 500));
    const top = a.body.data.causes[0] as Cause;
    assert.equal(top.code, 'body_modified');
    assert.equal(evidenceValue(top, 'Variant'), 'trailing_newline_added');
  });
});

/**
 * A stand-in for an OpenAI-compatible server: no LLM can run on this machine,
 * so this local server answers chat completions the way one would and records
 * what it was sent.
 */
async function fakeLlmServer(): Promise<{
  url: string;
  requests: { path: string; auth: string | undefined; body: string }[];
  mode: { value: 'ok' | 'fail' | 'hang' };
  close: () => Promise<void>;
}> {
  const requests: { path: string; auth: string | undefined; body: string }[] = [];
  const mode = { value: 'ok' as 'ok' | 'fail' | 'hang' };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '',
        auth: req.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (mode.value === 'hang') return; // never answers; closed with the server
      if (mode.value === 'fail') {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'model not loaded' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          choices: [
            { index: 0, message: { role: 'assistant', content: 'Your sender signs with an old secret. Update it.' } },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mode,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('remediation with an LLM configured', () => {
  const SECRET = 'whsec_llm_test_secret_never_sent';
  let llm: Awaited<ReturnType<typeof fakeLlmServer>>;
  let t: TestEngine;
  let ep: string;
  before(async () => {
    llm = await fakeLlmServer();
    t = await startTestEngine({
      remediation: { llm: { url: llm.url, model: 'local-test-model', apiKey: 'llm-key', timeoutMs: 500 } },
    });
    ep = await t.endpoint({ name: 'llm', validationType: 'stripe', webhookSecret: SECRET });
  });
  after(async () => {
    await t.stop();
    await llm.close();
  });

  const failed = async (): Promise<string> => {
    const body = JSON.stringify({ id: 'evt_llm', padding: 'p'.repeat(1000) });
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_someone_else' });
    const r = await t.deliver(`/webhook/${ep}`, { body, headers: { 'stripe-signature': header } });
    assert.equal(r.status, 400);
    return r.body.error.details.logId as string;
  };

  test('adds the prose as explanation (engine rules+llm) and never sends the secret or the whole body', async () => {
    llm.mode.value = 'ok';
    const logId = await failed();
    const r = await t.api('POST', `/api/webhooks/logs/${logId}/analyze`);
    assert.equal(r.status, 200);
    assert.equal(r.body.data.engine, 'rules+llm');
    assert.equal(r.body.data.explanation, 'Your sender signs with an old secret. Update it.');
    assert.equal(r.body.data.causes[0].code, 'wrong_secret');
    const sent = llm.requests.at(-1)!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.auth, 'Bearer llm-key');
    const payload = JSON.parse(sent.body);
    assert.equal(payload.model, 'local-test-model');
    assert.match(payload.messages[1].content, /wrong_secret/);
    assert.ok(!sent.body.includes(SECRET), 'the endpoint secret is never sent to the LLM');
    assert.ok(!sent.body.includes('p'.repeat(300)), 'only a short preview of the body is sent');
  });

  test('a failing LLM (500, or no answer in time) leaves the rules analysis with llmError', async () => {
    llm.mode.value = 'fail';
    const logId = await failed();
    const r = await t.api('POST', `/api/webhooks/logs/${logId}/analyze`);
    assert.equal(r.status, 200);
    assert.equal(r.body.data.engine, 'rules');
    assert.equal(r.body.data.explanation, undefined);
    assert.match(r.body.data.llmError, /answered 500: model not loaded/);
    assert.equal(r.body.data.causes[0].code, 'wrong_secret');

    llm.mode.value = 'hang';
    const again = await t.api('POST', `/api/webhooks/logs/${logId}/analyze?refresh=true`);
    assert.equal(again.status, 200);
    assert.equal(again.body.data.engine, 'rules');
    assert.match(again.body.data.llmError, /did not answer within 500 ms/);
    assert.equal(again.body.data.causes[0].code, 'wrong_secret');
  });
});
