import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/** Header pairs of a raw answer, without Date (it changes). */
function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== 'date') out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

function deliverRaw(url: string, body: string): Promise<{ status: number; headers: [string, string][]; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: pairs(res.rawHeaders), body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('custom responses are inert', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine();
  });
  after(() => t.stop());

  test("the engine's policy headers come first; a user's X-Content-Type-Options is dropped, a user's own policy is kept after ours", async () => {
    const id = await t.endpoint({
      name: 'headers',
      validationType: 'none',
      customResponse: {
        status: 200,
        headers: [
          { name: 'X-Content-Type-Options', value: 'sniff-please' },
          { name: 'Content-Security-Policy', value: "script-src 'unsafe-inline'" },
          { name: 'Content-Type', value: 'text/html' },
        ],
        body: '<p>hi</p>',
      },
    });
    const r = await deliverRaw(`${t.engine.receiverUrl}/webhook/${id}`, '{}');
    assert.equal(r.status, 200);
    assert.equal(r.body, '<p>hi</p>');
    const names = r.headers.map(([n]) => n);
    assert.deepEqual(r.headers.slice(0, 4), [
      ['Content-Security-Policy', "sandbox; default-src 'none'"],
      ['X-Content-Type-Options', 'nosniff'],
      ['Content-Security-Policy', "script-src 'unsafe-inline'"],
      ['Content-Type', 'text/html'],
    ]);
    assert.equal(names.filter((n) => n.toLowerCase() === 'x-content-type-options').length, 1);
  });

  test('on the API listener a delivery gets the default envelope at once: no custom status, headers, body or delay', async () => {
    const id = await t.endpoint({
      name: 'api door',
      validationType: 'none',
      customResponse: {
        status: 503,
        headers: [
          { name: 'Content-Type', value: 'text/html' },
          { name: 'X-Custom', value: '1' },
        ],
        body: '<script>alert(1)</script>',
        delayMs: 30_000,
      },
    });
    const started = Date.now();
    const r = await deliverRaw(`${t.engine.apiUrl}/webhook/${id}/sub?x=1`, '{"n":1}');
    assert.ok(Date.now() - started < 10_000, 'the 30 s delay is not waited out');
    assert.equal(r.status, 200);
    assert.equal(
      new Map(r.headers.map(([n, v]) => [n.toLowerCase(), v])).get('content-type'),
      'application/json; charset=utf-8',
    );
    assert.equal(
      r.headers.some(([n]) => n === 'X-Custom' || n === 'Hookscope-Log-Id'),
      false,
    );
    const answer = JSON.parse(r.body) as { success: boolean; data: { id: string } };
    assert.equal(answer.success, true);
    const log = (await t.api('GET', `/api/webhooks/logs/${answer.data.id}`)).body.data;
    assert.deepEqual([log.endpointId, log.path, log.body], [id, '/sub', '{"n":1}'], 'the delivery is stored as usual');

    // The same endpoint on the receiver listener still answers as configured (without waiting the delay here).
    await t.api('PATCH', `/api/endpoints/${id}`, {
      body: { customResponse: { status: 503, headers: [{ name: 'X-Custom', value: '1' }], body: 'busy' } },
    });
    const pub = await rawRequest(`${t.engine.receiverUrl}/webhook/${id}`, { body: '{}' });
    assert.equal(pub.status, 503);
    assert.equal(pub.body.toString(), 'busy');
    assert.equal(pub.headers['x-custom'], '1');
  });

  test('a refused Set-Cookie leaves the stored custom response as it was', async () => {
    const before = { status: 202, headers: [{ name: 'X-Kept', value: 'yes' }], body: 'ok', delayMs: 0 };
    const id = await t.endpoint({ name: 'cookie', validationType: 'none', customResponse: before });
    const r = await t.api('PATCH', `/api/endpoints/${id}`, {
      body: {
        customResponse: { status: 200, headers: [{ name: 'Set-Cookie', value: 'hookscope_session=x; Path=/' }] },
      },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.error.details.issues[0].field, 'customResponse.headers.0.name');
    assert.match(r.body.error.message, /"Set-Cookie" cannot be set: a custom response never sets a cookie/);
    assert.deepEqual((await t.api('GET', `/api/endpoints/${id}`)).body.data.customResponse, before);
  });
});
