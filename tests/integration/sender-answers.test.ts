import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { DEFAULT_CONFIG } from '../../server/config/config.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const SECRET = 'sender-answers-secret';
const MAX_BODY = 1000;

/** What a sender got, as received: status, headers in order and case, body bytes. */
interface Received {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

/**
 * A POST that declares `declared` bytes and sends only `first`, then waits: the
 * receiver cuts it off (408) once no byte arrives for its idle limit.
 */
function stalledPost(url: string, declared: number, first: string): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'Content-Length': String(declared) } });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.write(first);
  });
}

/**
 * The sender's headers less those Node adds for the connection (Date, Keep-Alive, and
 * Connection unless the engine wrote one, as on a 408): the API shows what the engine wrote.
 */
function engineWritten(raw: string[], answerHeaders: [string, string][]): [string, string][] {
  const wroteConnection = answerHeaders.some(([n]) => n.toLowerCase() === 'connection');
  const pairs: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name === 'date' || name === 'keep-alive' || (name === 'connection' && !wroteConnection)) continue;
    pairs.push([raw[i]!, raw[i + 1]!]);
  }
  return pairs;
}

describe("the log detail shows the answer the sender got, byte for byte (GET /api/webhooks/logs/:logId's answer)", () => {
  let t: TestEngine;
  let plain: string;
  let signed: string;

  before(async () => {
    t = await startTestEngine({
      maxBodyBytes: MAX_BODY,
      receiver: { ...DEFAULT_CONFIG.receiver, bodyIdleTimeoutMs: 300, requestTimeoutMs: 5_000 },
    });
    plain = await t.endpoint({ name: 'plain', validationType: 'none' });
    signed = await t.endpoint({ name: 'signed', validationType: 'hmac_sha256', webhookSecret: SECRET });
  });
  after(() => t.stop());

  /** The log's detail, and the answer it reports checked against what the sender received. */
  async function answerMatches(logId: string, sent: Received): Promise<any> {
    const detail = (await t.api('GET', `/api/webhooks/logs/${logId}`)).body.data;
    const answer = detail.answer;
    assert.ok(answer, `no answer: ${detail.answerUnknown}`);
    assert.equal(detail.answerUnknown, null);
    assert.equal(answer.status, sent.status);
    assert.deepEqual(answer.headers, engineWritten(sent.rawHeaders, answer.headers));
    const body = Buffer.from(answer.body, answer.bodyEncoding);
    assert.ok(
      body.equals(sent.body),
      `API: ${JSON.stringify(body.toString())}; sender: ${JSON.stringify(sent.body.toString())}`,
    );
    return answer;
  }

  test('an accepted delivery: the { success, data: { id } } envelope', async () => {
    const sent = await rawRequest(`${t.engine.receiverUrl}/webhook/${plain}`, { body: '{"n":1}' });
    assert.equal(sent.status, 200);
    const logId = sent.json().data.id as string;
    const answer = await answerMatches(logId, sent);
    assert.equal(answer.kind, 'accepted');
    assert.equal(answer.body, JSON.stringify({ success: true, data: { id: logId } }));
    assert.equal(answer.delayMs, 0);
  });

  test('a failed signature: the 400 envelope with its reason', async () => {
    const sent = await rawRequest(`${t.engine.receiverUrl}/webhook/${signed}`, {
      body: '{"n":2}',
      headers: [['X-Webhook-Signature', createHmac('sha256', 'another secret').update('{"n":2}').digest('hex')]],
    });
    assert.equal(sent.status, 400);
    const error = sent.json().error;
    assert.equal(error.code, 'SIGNATURE_VERIFICATION_FAILED');
    const answer = await answerMatches(error.details.logId, sent);
    assert.equal(answer.kind, 'verification_failed');
  });

  test('a custom response on the receiver listener, kept as it was when the endpoint changes later', async () => {
    const customResponse = {
      status: 202,
      headers: [
        { name: 'X-Custom', value: 'first' },
        { name: 'X-Repeated', value: 'a' },
        { name: 'X-Repeated', value: 'b' },
        { name: 'Content-Type', value: 'text/plain; charset=utf-8' },
      ],
      body: 'thanks, queued',
      delayMs: 0,
    };
    const id = await t.endpoint({ name: 'custom', validationType: 'none', customResponse });
    const sent = await rawRequest(`${t.engine.receiverUrl}/webhook/${id}/hook`, { body: '{"n":3}' });
    assert.equal(sent.status, 202);
    const logId = sent.headers['hookscope-log-id'] as string;
    const answer = await answerMatches(logId, sent);
    assert.equal(answer.kind, 'custom');
    assert.equal(answer.body, 'thanks, queued');

    const changed = await t.api('PATCH', `/api/endpoints/${id}`, {
      body: { customResponse: { ...customResponse, status: 500, body: 'now failing' } },
    });
    assert.equal(changed.status, 200);
    const again = (await t.api('GET', `/api/webhooks/logs/${logId}`)).body.data.answer;
    assert.deepEqual(again, answer, 'the answer that was sent, not the endpoint as it is now');
    // The next delivery gets (and shows) the new one.
    const next = await rawRequest(`${t.engine.receiverUrl}/webhook/${id}`, { body: '{"n":4}' });
    assert.equal(next.status, 500);
    assert.equal((await answerMatches(next.headers['hookscope-log-id'] as string, next)).body, 'now failing');
  });

  test('the same endpoint through the API listener: only the default envelope', async () => {
    const id = await t.endpoint({
      name: 'custom on api',
      validationType: 'none',
      customResponse: { status: 418, body: 'teapot' },
    });
    const sent = await rawRequest(`${t.engine.apiUrl}/webhook/${id}`, { body: '{"n":5}' });
    assert.equal(sent.status, 200);
    const answer = await answerMatches(sent.json().data.id, sent);
    assert.equal(answer.kind, 'accepted');
  });

  test('a body over the limit: the 413 refusal envelope', async () => {
    const sent = await rawRequest(`${t.engine.receiverUrl}/webhook/${plain}`, { body: 'x'.repeat(MAX_BODY * 5) });
    assert.equal(sent.status, 413);
    const error = sent.json().error;
    assert.equal(error.details.reason, 'payload_too_large');
    const answer = await answerMatches(error.details.logId, sent);
    assert.equal(answer.kind, 'refused');
  });

  test('a sender that stalls: the 408 refusal envelope (with the Connection: close the engine wrote)', async () => {
    const sent = await stalledPost(`${t.engine.receiverUrl}/webhook/${plain}`, 100, '0123456789');
    assert.equal(sent.status, 408);
    const error = JSON.parse(sent.body.toString()).error;
    assert.equal(error.details.reason, 'body_timeout');
    const answer = await answerMatches(error.details.logId, sent);
    assert.equal(answer.kind, 'refused');
    assert.ok(answer.headers.some(([n, v]: [string, string]) => n === 'connection' && v === 'close'));
  });

  test('a HEAD delivery: the envelope headers, and no body, as Node sent none', async () => {
    const sent = await rawRequest(`${t.engine.receiverUrl}/webhook/${plain}`, { method: 'HEAD' });
    assert.equal(sent.status, 200);
    const logs = (await t.api('GET', `/api/webhooks/logs?endpointId=${plain}&limit=1`)).body.data.logs;
    assert.equal(logs[0].method, 'HEAD');
    const answer = await answerMatches(logs[0].id, sent);
    assert.equal(answer.body, '');
  });
});
