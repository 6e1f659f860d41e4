import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { PRETTY_PRINT_MAX_BYTES } from '../../server/share/share-html.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { storedBytes } from '../helpers/stored-bytes.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const HOUR = 3_600_000;

const tokenOf = (url: string): string => url.slice(url.lastIndexOf('/share/') + '/share/'.length);

describe('sharing', () => {
  const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
  let t: TestEngine;
  let ep: string;
  let other: string;
  let logId: string;
  let xssLogId: string;

  const deliverJson = async (body: string, headers: Record<string, string> = {}): Promise<string> => {
    const r = await t.deliver(`/webhook/${ep}/hooks?order=7`, {
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
    assert.equal(r.status, 200);
    return r.body.data.id as string;
  };
  const share = (id: string, body?: unknown, token?: string) =>
    t.api('POST', `/api/webhooks/${id}/share`, { body, token });
  const get = (url: string, accept = 'text/html') => rawRequest(url, { method: 'GET', headers: [['Accept', accept]] });

  before(async () => {
    t = await startTestEngine({}, { clock });
    ep = await t.endpoint({ name: 'shop', validationType: 'none' });
    other = await t.engine.issueToken('teammate');
    logId = await deliverJson('{"id":"evt_1","amount":1200}', {
      authorization: 'Bearer sk_live_abc',
      cookie: 'session=s3cr3t',
      'x-api-key': 'key-123',
      'stripe-signature': 't=1,v1=deadbeef',
      'x-trace': 'visible-trace',
    });
    xssLogId = await deliverJson('<script>alert(1)</script>', { 'x-evil': `"<>&'` });
  });
  after(() => t.stop());

  test('creates a link (201) on the receiver, local-only without a tunnel, and serves HTML there and on the API listener', async () => {
    const r = await share(logId, { expiresInHours: 2 });
    assert.equal(r.status, 201);
    const d = r.body.data;
    assert.equal(d.expiresInHours, 2);
    assert.equal(d.redacted, true);
    assert.equal(d.localOnly, true);
    assert.equal(d.expiresAt, new Date(clock.now() + 2 * HOUR).toISOString());
    assert.equal(d.createdAt, new Date(clock.now()).toISOString());
    assert.ok(d.url.startsWith(`${t.engine.receiverUrl}/share/`), d.url);
    assert.match(tokenOf(d.url), /^[A-Za-z0-9_-]{43}$/);

    for (const url of [d.url, `${t.engine.apiUrl}/share/${tokenOf(d.url)}`]) {
      const page = await get(url);
      assert.equal(page.status, 200, url);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.equal(page.headers['x-content-type-options'], 'nosniff');
      assert.equal(page.headers['referrer-policy'], 'no-referrer');
      const csp = String(page.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'/);
      assert.doesNotMatch(csp, /script-src|unsafe-inline/);
      const html = page.body.toString('utf8');
      assert.ok(html.includes('POST'));
      assert.ok(html.includes('/hooks'));
      assert.ok(html.includes('visible-trace'));
      assert.ok(
        html.includes('<pre>{\n  "id": "evt_1",\n  "amount": 1200\n}</pre>'),
        'JSON body pretty-printed (quotes need no escape in text)',
      );
      assert.ok(html.includes('order') && html.includes('7'), 'query shown');
      assert.ok(html.includes('skipped'), 'verification verdict');
      assert.ok(html.includes(d.expiresAt), 'expiry shown');
    }
  });

  test('serves the redacted log detail as JSON with Accept: application/json, on both listeners', async () => {
    const d = (await share(logId)).body.data;
    for (const url of [d.url, `${t.engine.apiUrl}/share/${tokenOf(d.url)}`]) {
      const r = await get(url, 'application/json');
      assert.equal(r.status, 200);
      const log = r.json().data;
      assert.equal(log.id, logId);
      assert.equal(log.body, '{"id":"evt_1","amount":1200}');
      assert.equal(log.headers.authorization, '[redacted]');
      assert.equal(log.headers.cookie, '[redacted]');
      assert.equal(log.headers['x-api-key'], '[redacted]');
      assert.equal(log.headers['stripe-signature'], '[redacted]');
      assert.equal(log.headers['x-trace'], 'visible-trace');
      const raw = Object.fromEntries(log.rawHeaders);
      assert.equal(raw.authorization ?? raw.Authorization, '[redacted]');
      assert.equal(raw['stripe-signature'] ?? raw['Stripe-Signature'], '[redacted]');
      assert.equal(log.share.redacted, true);
      assert.equal(log.share.expiresAt, d.expiresAt);
      const text = r.body.toString('utf8');
      for (const secret of ['sk_live_abc', 's3cr3t', 'key-123', 'deadbeef']) assert.ok(!text.includes(secret), secret);
    }
  });

  test('redact: false shows every header', async () => {
    const d = (await share(logId, { redact: false })).body.data;
    assert.equal(d.redacted, false);
    const log = (await get(d.url, 'application/json')).json().data;
    assert.equal(log.headers.authorization, 'Bearer sk_live_abc');
    assert.equal(log.headers.cookie, 'session=s3cr3t');
    assert.equal(log.headers['x-api-key'], 'key-123');
    assert.equal(log.headers['stripe-signature'], 't=1,v1=deadbeef');
    const html = (await get(d.url)).body.toString('utf8');
    assert.ok(html.includes('sk_live_abc'));
  });

  test('escapes the body and header values in the HTML', async () => {
    const d = (await share(xssLogId)).body.data;
    const html = (await get(d.url)).body.toString('utf8');
    assert.ok(!html.includes('<script>'), 'no raw <script> anywhere');
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(html.includes('&quot;&lt;&gt;&amp;&#39;'), 'header value escaped');
    assert.ok(!html.includes(`"<>&'`));
  });

  test('a second POST replaces the link: the old token answers 404, the new one works', async () => {
    const first = (await share(logId)).body.data;
    assert.equal((await get(first.url)).status, 200);
    const second = (await share(logId)).body.data;
    assert.notEqual(second.url, first.url);
    const old = await get(first.url, 'application/json');
    assert.equal(old.status, 404);
    assert.equal(old.json().error.code, 'SHARE_NOT_FOUND');
    assert.equal((await get(second.url)).status, 200);
  });

  test('revoke answers 200, then the link is 404, and a second revoke is 404', async () => {
    const d = (await share(logId)).body.data;
    const r = await t.api('DELETE', `/api/webhooks/${logId}/share`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, { logId, revoked: true });
    const page = await get(d.url);
    assert.equal(page.status, 404);
    assert.match(page.body.toString('utf8'), /not found/i);
    const again = await t.api('DELETE', `/api/webhooks/${logId}/share`);
    assert.equal(again.status, 404);
    assert.equal(again.body.error.code, 'SHARE_NOT_FOUND');
  });

  test('expires exactly at expiresAt with 410 SHARE_EXPIRED', async () => {
    const d = (await share(logId, { expiresInHours: 1 })).body.data;
    clock.advance(HOUR - 1);
    assert.equal((await get(d.url)).status, 200);
    clock.advance(1);
    const json = await get(d.url, 'application/json');
    assert.equal(json.status, 410);
    assert.equal(json.json().error.code, 'SHARE_EXPIRED');
    const html = await get(d.url);
    assert.equal(html.status, 410);
    assert.match(html.body.toString('utf8'), /expired/i);
  });

  test('bad expiresInHours or redact is 400 naming the field', async () => {
    for (const value of [0, -1, 721, 'x', null, '24']) {
      const r = await share(logId, { expiresInHours: value });
      assert.equal(r.status, 400, JSON.stringify(value));
      assert.ok(r.body.error.message.includes('expiresInHours'), r.body.error.message);
      assert.equal(r.body.error.details.issues[0].field, 'expiresInHours');
    }
    const r = await share(logId, { redact: 'yes' });
    assert.equal(r.status, 400);
    assert.ok(r.body.error.message.includes('redact'));
    assert.equal((await share(logId, { expiresInHours: 720 })).status, 201, '720 is allowed');
    assert.equal((await share(logId, { expiresInHours: 0.5 })).status, 201, 'fractions are allowed');
  });

  test('only GET and HEAD; unknown and malformed tokens are 404', async () => {
    const d = (await share(logId)).body.data;
    const post = await rawRequest(d.url, { method: 'POST', body: '{}' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
    const head = await rawRequest(d.url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal((await get(`${t.engine.receiverUrl}/share/${'A'.repeat(43)}`)).status, 404);
    assert.equal((await get(`${t.engine.receiverUrl}/share/short`)).status, 404);
    assert.equal((await get(`${d.url}/extra`)).status, 404);
  });

  test('another account can neither share nor revoke the log (404)', async () => {
    await share(logId);
    const s = await share(logId, {}, other);
    assert.equal(s.status, 404);
    const del = await t.api('DELETE', `/api/webhooks/${logId}/share`, { token: other });
    assert.equal(del.status, 404);
    assert.equal((await share('log_missing')).status, 404);
  });

  test('the token is stored only as a hash (journal and snapshot bytes, or database rows)', async () => {
    const d = (await share(logId)).body.data;
    const token = tokenOf(d.url);
    const hash = createHash('sha256').update(token).digest('hex');
    const journaled = await storedBytes(t.engine);
    assert.ok(journaled.includes(hash), 'the hash is what was written (so the bytes read are the right ones)');
    assert.ok(!journaled.includes(token), 'not in the journal');
    await t.engine.checkpoint();
    const snapshot = await storedBytes(t.engine);
    assert.ok(snapshot.includes(hash));
    assert.ok(!snapshot.includes(token), 'not in the snapshot');
    assert.equal((await get(d.url)).status, 200, 'and it still works');
  });

  test('deleting the endpoint makes its shares 404', async () => {
    const ep2 = await t.endpoint({ name: 'temp', validationType: 'none' });
    const id = (await t.deliver(`/webhook/${ep2}`, { body: 'x' })).body.data.id;
    const d = (await share(id)).body.data;
    assert.equal((await get(d.url)).status, 200);
    assert.equal((await t.api('DELETE', `/api/endpoints/${ep2}`)).status, 200);
    assert.equal((await get(d.url)).status, 404);
  });
});

describe('the share page of a large body', () => {
  let t: TestEngine;
  let ep: string;
  before(async () => {
    t = await startTestEngine();
    ep = await t.endpoint({ name: 'large', validationType: 'none' });
  });
  after(() => t.stop());

  /** Delivers the body, shares it, and answers the page and the link. */
  const sharePage = async (body: string) => {
    const r = await t.deliver(`/webhook/${ep}`, { body, headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 200);
    const url = (await t.api('POST', `/api/webhooks/${r.body.data.id}/share`)).body.data.url as string;
    const page = await rawRequest(url, { method: 'GET', headers: [['Accept', 'text/html']] });
    assert.equal(page.status, 200);
    return { html: page.body.toString('utf8'), url, id: r.body.data.id as string };
  };
  /** A compact JSON text of exactly `size` bytes with a <script> in it. */
  const jsonOfSize = (size: number): string => {
    const frame = '{"html":"<script>alert(1)</script>","pad":""}';
    return frame.replace('"pad":""', `"pad":"${'x'.repeat(size - frame.length)}"`);
  };

  test(`a body of ${PRETTY_PRINT_MAX_BYTES} bytes is pretty-printed; one byte more is shown as received, with the JSON view offered`, async () => {
    const under = jsonOfSize(PRETTY_PRINT_MAX_BYTES);
    assert.equal(Buffer.byteLength(under), PRETTY_PRINT_MAX_BYTES);
    const small = await sharePage(under);
    assert.ok(
      small.html.includes('<pre>{\n  "html": "&lt;script&gt;alert(1)&lt;/script&gt;",\n  "pad": "xxx'),
      'pretty-printed and escaped',
    );
    assert.ok(!small.html.includes('?format=json'));

    const over = jsonOfSize(PRETTY_PRINT_MAX_BYTES + 1);
    const large = await sharePage(over);
    assert.ok(
      large.html.includes(
        `<pre>${over.replace('<script>', '&lt;script&gt;').replace('</script>', '&lt;/script&gt;')}</pre>`,
      ),
      'as received, escaped',
    );
    assert.ok(!large.html.includes('{\n  "html"'), 'not pretty-printed');
    assert.ok(!large.html.includes('<script>'));
    assert.ok(
      large.html.includes(`Large body (${PRETTY_PRINT_MAX_BYTES + 1} bytes): shown as received, without formatting.`),
    );
    assert.ok(large.html.includes('<a href="?format=json">JSON view</a>'));
    assert.ok(large.html.includes(`hookscope export ${large.id} --format json|har|curl|http`));
    // The offered link: the same JSON view as Accept: application/json.
    const json = await rawRequest(`${large.url}?format=json`, { method: 'GET', headers: [['Accept', 'text/html']] });
    assert.equal(json.status, 200);
    assert.match(String(json.headers['content-type']), /^application\/json/);
    assert.equal(json.json().data.body, over);
  });

  test('a 10 MiB JSON body: the page is the body plus a few KiB, not a pretty-printed copy', async () => {
    const item = '{"id":"evt_0001","amount":1200,"note":"hello world"},';
    const n = Math.floor((10 * 1024 * 1024 - 2) / item.length);
    const body = `[${item.repeat(n).slice(0, -1)}]`; // nothing in it needs escaping in HTML text
    const { html } = await sharePage(body);
    assert.ok(html.length < body.length * 1.2, `${html.length} bytes of HTML for ${body.length} of body`);
    assert.ok(html.includes(`<pre>${body}</pre>`));
    assert.ok(html.length - body.length < 4096, `page overhead ${html.length - body.length} bytes`);
  });
});

describe('redaction through a real share link: every sensitive header and query parameter, HTML and JSON', () => {
  // One name per entry of SENSITIVE_NAMES at least (so dropping any entry fails), plus the spellings users send.
  const NAMES = [
    'Authorization',
    'Proxy-Authorization',
    'Cookie',
    'Set-Cookie',
    'X-API-Key',
    'api_key',
    'apikey',
    'X-Auth-Key',
    'X-Auth-Token',
    'X-CSRF-Token',
    'access_token',
    'refresh_token',
    'private_token',
    'secret',
    'client_secret',
    'password',
    'passwd',
    'pwd',
    'session',
    'sessionid',
    'PHPSESSID',
    'credential',
    'credentials',
    'access_key',
    'private_key',
    'jwt',
    'signature',
    'Stripe-Signature',
    'X-Hub-Signature-256',
    'X-Shopify-Hmac-Sha256',
    'X-Slack-Signature',
    'Webhook-Signature',
    'Svix-Signature',
    'X-Webhook-Signature',
    'auth',
    'X-Auth',
    'key',
    'sig',
  ];
  const VISIBLE = ['X-Trace', 'X-Idempotency-Key', 'author'];
  // Values unique per name and place, so each one is looked for on its own.
  const headerValue = (n: string) => `hv-${n.toLowerCase()}-7f3a`;
  const queryValue = (n: string) => `qv-${n.toLowerCase()}-9c1e`;
  let t: TestEngine;
  let logId: string;

  before(async () => {
    t = await startTestEngine();
    const ep = await t.endpoint({ name: 'redact', validationType: 'none' });
    const query = new URLSearchParams([...NAMES, ...VISIBLE].map((n): [string, string] => [n, queryValue(n)]));
    const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${ep}/r?${query.toString()}`, {
      headers: [...NAMES, ...VISIBLE].map((n): [string, string] => [n, headerValue(n)]),
      body: '{"kept":"as received"}',
    });
    assert.equal(r.status, 200);
    logId = r.json().data.id;
  });
  after(() => t.stop());

  const open = async (redact: boolean) => {
    const d = (await t.api('POST', `/api/webhooks/${logId}/share`, { body: { redact } })).body.data;
    const json = await rawRequest(d.url, { method: 'GET', headers: [['Accept', 'application/json']] });
    const html = await rawRequest(d.url, { method: 'GET', headers: [['Accept', 'text/html']] });
    assert.equal(json.status, 200);
    assert.equal(html.status, 200);
    return { log: json.json().data, jsonText: json.body.toString('utf8'), html: html.body.toString('utf8') };
  };

  test('redact on: no sensitive value in the JSON view or the HTML page, [redacted] in its place; others shown', async () => {
    const { log, jsonText, html } = await open(true);
    const rawNames = new Map<string, string>(log.rawHeaders);
    for (const n of NAMES) {
      for (const [where, text] of [
        ['json', jsonText],
        ['html', html],
      ]) {
        assert.ok(!text!.includes(headerValue(n)), `${where}: header ${n} leaked`);
        assert.ok(!text!.includes(queryValue(n)), `${where}: query ${n} leaked`);
      }
      assert.equal(log.headers[n.toLowerCase()], '[redacted]', `headers.${n}`);
      assert.equal(rawNames.get(n), '[redacted]', `rawHeaders ${n}`);
      assert.equal(log.query[n], '[redacted]', `query.${n}`);
      assert.ok(html.includes(`<tr><th>${n}</th><td>[redacted]</td></tr>`), `html row ${n}`);
    }
    for (const n of VISIBLE) {
      assert.equal(log.headers[n.toLowerCase()], headerValue(n));
      assert.equal(log.query[n], queryValue(n));
      assert.ok(html.includes(headerValue(n)) && html.includes(queryValue(n)), n);
    }
    // Every header row and every query row of a sensitive name, and nothing else.
    assert.equal(html.split('<td>[redacted]</td>').length - 1, 2 * NAMES.length);
    assert.equal(log.body, '{"kept":"as received"}');
  });

  test('redact off: every value is shown in both views', async () => {
    const { log, jsonText, html } = await open(false);
    assert.ok(!jsonText.includes('[redacted]') && !html.includes('[redacted]'));
    for (const n of NAMES) {
      assert.equal(log.query[n], queryValue(n));
      assert.equal(log.headers[n.toLowerCase()], headerValue(n));
      assert.ok(html.includes(headerValue(n)) && html.includes(queryValue(n)), n);
    }
  });
});

describe('redaction of the names added for issue 21, through a real share link (HTML and JSON)', () => {
  // Query parameters and headers as senders use them; each value is unique so a leak is found on its own.
  const QUERY = ['pass', 'passphrase', 'code', 'otp', 'pin', 'bearer'];
  const HEADERS = [
    'X-Pass',
    'Passphrase',
    'X-Otp',
    'DSN',
    'X-Bearer',
    'X-Auth-Code',
    'X-Refresh',
    'X-Refresh-Key',
    'X-Sig',
    'X-Sig-Key',
    'X-Signed-By',
  ];
  // Neighbours of the new exact names and prefixes that must stay visible.
  const VISIBLE_QUERY = ['passenger', 'codec', 'pinned', 'shipping', 'bearers'];
  const VISIBLE_HEADERS = ['Refresh', 'X-Pass-Through', 'X-Code-Version', 'X-Dsn-Region', 'X-Otp-Sent'];
  const value = (where: string, n: string) => `${where}-${n.toLowerCase()}-51d0`;
  let t: TestEngine;
  let logId: string;

  before(async () => {
    t = await startTestEngine();
    const ep = await t.endpoint({ name: 'redact-more', validationType: 'none' });
    const query = new URLSearchParams([...QUERY, ...VISIBLE_QUERY].map((n): [string, string] => [n, value('q', n)]));
    const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${ep}/r?${query.toString()}`, {
      headers: [...HEADERS, ...VISIBLE_HEADERS].map((n): [string, string] => [n, value('h', n)]),
      body: '{}',
    });
    assert.equal(r.status, 200);
    logId = r.json().data.id;
  });
  after(() => t.stop());

  test('each new name is [redacted] in the JSON view, the ?format=json export and the HTML page; neighbours are shown', async () => {
    const d = (await t.api('POST', `/api/webhooks/${logId}/share`)).body.data;
    assert.equal(d.redacted, true, 'on by default');
    const byAccept = await rawRequest(d.url, { method: 'GET', headers: [['Accept', 'application/json']] });
    const byFormat = await rawRequest(`${d.url}?format=json`, { method: 'GET', headers: [['Accept', '*/*']] });
    const page = await rawRequest(d.url, { method: 'GET', headers: [['Accept', 'text/html']] });
    const html = page.body.toString('utf8');
    for (const json of [byAccept, byFormat]) {
      assert.equal(json.status, 200);
      const log = json.json().data;
      const text = json.body.toString('utf8');
      const raw = new Map<string, string>(log.rawHeaders);
      for (const n of QUERY) {
        assert.equal(log.query[n], '[redacted]', `query ${n}`);
        assert.ok(!text.includes(value('q', n)) && !html.includes(value('q', n)), `query ${n} leaked`);
        assert.ok(html.includes(`<tr><th>${n}</th><td>[redacted]</td></tr>`), `html query row ${n}`);
      }
      for (const n of HEADERS) {
        assert.equal(log.headers[n.toLowerCase()], '[redacted]', `header ${n}`);
        assert.equal(raw.get(n), '[redacted]', `rawHeaders ${n}`);
        assert.ok(!text.includes(value('h', n)) && !html.includes(value('h', n)), `header ${n} leaked`);
        assert.ok(html.includes(`<tr><th>${n}</th><td>[redacted]</td></tr>`), `html header row ${n}`);
      }
      for (const n of VISIBLE_QUERY) assert.equal(log.query[n], value('q', n), n);
      for (const n of VISIBLE_HEADERS) assert.equal(log.headers[n.toLowerCase()], value('h', n), n);
    }
    assert.equal(html.split('<td>[redacted]</td>').length - 1, QUERY.length + HEADERS.length);
  });
});

describe('path redaction through a real share link (HTML and JSON)', () => {
  const SECRET_PATH = '/services/T0WORKSPACE/B0CHANNEL/s3cretPathToken';
  const SECRETS = ['T0WORKSPACE', 'B0CHANNEL', 's3cretPathToken'];
  let t: TestEngine;
  let ep: string;
  let logId: string;

  before(async () => {
    t = await startTestEngine();
    ep = await t.endpoint({ name: 'slack-style', validationType: 'none' });
    const r = await t.deliver(`/webhook/${ep}${SECRET_PATH}?channel=ops`, {
      body: '{"text":"hi"}',
      headers: { 'content-type': 'application/json', authorization: 'Bearer path-test' },
    });
    assert.equal(r.status, 200);
    logId = r.body.data.id;
  });
  after(() => t.stop());

  const share = (body?: unknown) => t.api('POST', `/api/webhooks/${logId}/share`, { body });
  const views = async (url: string) => {
    const json = await rawRequest(url, { method: 'GET', headers: [['Accept', 'application/json']] });
    const exported = await rawRequest(`${url}?format=json`, { method: 'GET' });
    const page = await rawRequest(url, { method: 'GET', headers: [['Accept', 'text/html']] });
    assert.deepEqual([json.status, exported.status, page.status], [200, 200, 200]);
    return { json, exported, html: page.body.toString('utf8') };
  };

  test('redactPath: true hides every segment after the first in the JSON view, the ?format=json export and the HTML page', async () => {
    const r = await share({ redactPath: true });
    assert.equal(r.status, 201);
    assert.equal(r.body.data.pathRedacted, true);
    assert.equal(r.body.data.redacted, true, 'name redaction stays on by default');
    const { json, exported, html } = await views(r.body.data.url);
    for (const view of [json, exported]) {
      const log = view.json().data;
      assert.equal(log.path, '/services/[redacted]/[redacted]/[redacted]');
      assert.deepEqual(log.share, { expiresAt: r.body.data.expiresAt, redacted: true, pathRedacted: true });
      assert.equal(log.query.channel, 'ops', 'the query is not part of the path');
      assert.equal(log.headers.authorization, '[redacted]');
      for (const secret of SECRETS) assert.ok(!view.body.toString('utf8').includes(secret), `json: ${secret}`);
    }
    assert.ok(html.includes('<h1>POST /services/[redacted]/[redacted]/[redacted]</h1>'), 'heading');
    assert.ok(html.includes('<title>POST /services/[redacted]/[redacted]/[redacted] - shared webhook</title>'));
    assert.ok(html.includes('path redacted after its first segment'));
    for (const secret of SECRETS) assert.ok(!html.includes(secret), `html: ${secret}`);
  });

  test('off by default; independent of redact (redact: false, redactPath: true hides the path only)', async () => {
    const off = (await share()).body.data;
    assert.equal(off.pathRedacted, false);
    const shown = await views(off.url);
    assert.equal(shown.json.json().data.path, SECRET_PATH);
    assert.equal(shown.json.json().data.share.pathRedacted, false);
    assert.ok(shown.html.includes(`<h1>POST ${SECRET_PATH}</h1>`));
    assert.ok(!shown.html.includes('path redacted'));

    const pathOnly = (await share({ redact: false, redactPath: true })).body.data;
    assert.deepEqual([pathOnly.redacted, pathOnly.pathRedacted], [false, true]);
    const log = (await views(pathOnly.url)).json.json().data;
    assert.equal(log.path, '/services/[redacted]/[redacted]/[redacted]');
    assert.equal(log.headers.authorization, 'Bearer path-test');
  });

  test('empty segments keep the shape; a one-segment path has nothing to hide', async () => {
    for (const [sent, shown] of [
      ['/services//B0/x/', '/services//[redacted]/[redacted]/'],
      ['/github', '/github'],
      ['', '/'],
    ]) {
      const id = (await t.deliver(`/webhook/${ep}${sent}`, { body: 'x' })).body.data.id;
      const d = (await t.api('POST', `/api/webhooks/${id}/share`, { body: { redactPath: true } })).body.data;
      assert.equal((await views(d.url)).json.json().data.path, shown, sent);
    }
  });

  test('a redactPath that is not a boolean is a 400 naming it', async () => {
    for (const bad of ['yes', 1, null, 'true']) {
      const r = await share({ redactPath: bad });
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.equal(r.body.error.code, 'VALIDATION_ERROR');
      assert.ok(r.body.error.message.includes('redactPath must be true or false.'), r.body.error.message);
      assert.equal(r.body.error.details.issues[0].field, 'redactPath');
    }
  });
});

describe('sharing with a tunnel and retention', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine({
      publicBaseUrl: 'https://hooks.example.test',
      retention: { maxLogsPerAccount: 1, maxBodyBytesPerAccount: 1 << 30 },
    });
  });
  after(() => t.stop());

  test('the link uses the public base while the tunnel is online, and a log evicted by retention makes it 404', async () => {
    const ep = await t.endpoint({ name: 'a', validationType: 'none' });
    const first = (await t.deliver(`/webhook/${ep}`, { body: 'one' })).body.data.id;
    const d = (await t.api('POST', `/api/webhooks/${first}/share`)).body.data;
    assert.equal(d.localOnly, false);
    assert.ok(d.url.startsWith('https://hooks.example.test/share/'), d.url);
    const local = `${t.engine.receiverUrl}/share/${tokenOf(d.url)}`;
    assert.equal((await rawRequest(local, { method: 'GET' })).status, 200);
    await t.deliver(`/webhook/${ep}`, { body: 'two' }); // evicts the first log
    assert.equal((await rawRequest(local, { method: 'GET' })).status, 404);
  });
});
