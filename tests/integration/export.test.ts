import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { promisify } from 'node:util';
import { startCaptureServer, type CaptureServer } from '../helpers/capture-server.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const run = promisify(execFile);
const HAS_CURL = spawnSync('curl', ['--version']).status === 0;
const TRANSPORT = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'expect']);

/** Runs a script given on stdin (a large command could not be one `-c` argument); rejects on a non-zero exit. */
function runScript(shell: string, script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(shell, [], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${shell} exited ${code}: ${err}`))));
    child.stdin.end(script);
  });
}

const TEXT_BODY = `@not-a-file 'single' "double" $HOME \`id\` $(echo pwned) \\ back\\slash\nline2\r\n\ttab é ✓ 💥 %s %% !event`;
const BINARY_BODY = Buffer.from([...Array(256).keys()].map((i) => (i * 37 + 11) % 256).concat([0, 0, 255, 39, 10]));

/** Header pairs without the ones a new client sets itself, in order, names lower-cased. */
const contentHeaders = (pairs: [string, string][]): [string, string][] =>
  pairs.filter(([n]) => !TRANSPORT.has(n.toLowerCase())).map(([n, v]) => [n.toLowerCase(), v]);

/** Checks the fields HAR 1.2 requires on the log, an entry, its request and its response. */
function assertHar(har: any): void {
  assert.equal(har.log.version, '1.2');
  assert.equal(typeof har.log.creator.name, 'string');
  assert.equal(typeof har.log.creator.version, 'string');
  assert.equal(har.log.entries.length, 1);
  const e = har.log.entries[0];
  assert.ok(!Number.isNaN(Date.parse(e.startedDateTime)), 'startedDateTime');
  assert.equal(typeof e.time, 'number');
  assert.equal(typeof e.cache, 'object');
  for (const k of ['send', 'wait', 'receive']) assert.equal(typeof e.timings[k], 'number', `timings.${k}`);
  const q = e.request;
  for (const k of ['method', 'url', 'httpVersion']) assert.equal(typeof q[k], 'string', `request.${k}`);
  for (const k of ['cookies', 'headers', 'queryString']) {
    assert.ok(Array.isArray(q[k]), `request.${k}`);
    for (const nv of q[k]) assert.ok(typeof nv.name === 'string' && typeof nv.value === 'string', `request.${k} entry`);
  }
  assert.equal(typeof q.headersSize, 'number');
  assert.equal(typeof q.bodySize, 'number');
  if (q.postData) {
    assert.equal(typeof q.postData.mimeType, 'string');
    assert.equal(typeof q.postData.text, 'string');
  }
  const r = e.response;
  for (const k of ['status', 'headersSize', 'bodySize']) assert.equal(typeof r[k], 'number', `response.${k}`);
  for (const k of ['statusText', 'httpVersion', 'redirectURL']) assert.equal(typeof r[k], 'string', `response.${k}`);
  assert.ok(Array.isArray(r.cookies) && Array.isArray(r.headers));
  assert.equal(typeof r.content.size, 'number');
  assert.equal(typeof r.content.mimeType, 'string');
}

describe('export', () => {
  let t: TestEngine;
  let target: CaptureServer;
  let ep: string;
  let textLog: string;
  let binaryLog: string;
  const textHeaders: [string, string][] = [
    ['Content-Type', 'text/plain; charset=utf-8'],
    ['User-Agent', 'sender/1.0'],
    ['X-Weird', `it's "$(id)" \`x\` $HOME \\`],
    ['Authorization', 'Bearer sk_test_123'],
    ['Cookie', 'a=1; session=xyz'],
    ['X-Empty', ''],
  ];

  const exportAs = (logId: string, qs: string) => t.api('GET', `/api/webhooks/logs/${logId}/export?${qs}`);

  before(async () => {
    t = await startTestEngine();
    target = await startCaptureServer();
    ep = await t.endpoint({ name: 'export', validationType: 'none' });
    const a = await rawRequest(`${t.engine.receiverUrl}/webhook/${ep}/in/path?x=1&y=a%20b&x=2`, {
      headers: textHeaders,
      body: TEXT_BODY,
    });
    textLog = a.json().data.id;
    const b = await rawRequest(`${t.engine.receiverUrl}/webhook/${ep}/bin`, {
      headers: [['Content-Type', 'application/octet-stream']],
      body: BINARY_BODY,
    });
    binaryLog = b.json().data.id;
  });
  after(async () => {
    await target.close();
    await t.stop();
  });

  for (const kind of ['text', 'binary'] as const) {
    test(
      `curl run with sh -c reproduces the exact bytes (${kind} body)`,
      { skip: HAS_CURL ? false : 'curl is not installed' },
      async () => {
        const logId = kind === 'text' ? textLog : binaryLog;
        const url = `${target.url}/replayed/here?q=1`;
        const r = await exportAs(logId, `format=curl&target=${encodeURIComponent(url)}`);
        assert.equal(r.status, 200);
        const d = r.body.data;
        assert.equal(d.format, 'curl');
        assert.equal(d.filename, `${logId}.sh`);
        assert.equal(d.contentEncoding, 'utf8');
        const got = target.next();
        await run('sh', ['-c', `${d.content.trimEnd()} --silent --output /dev/null`]);
        const c = await got;
        const original = (await t.api('GET', `/api/webhooks/logs/${logId}`)).body.data;
        assert.equal(c.method, 'POST');
        assert.equal(c.url, '/replayed/here?q=1');
        assert.ok(c.body.equals(Buffer.from(original.body, original.bodyEncoding)), 'body bytes identical');
        assert.ok(c.body.equals(kind === 'text' ? Buffer.from(TEXT_BODY) : BINARY_BODY));
        assert.deepEqual(
          contentHeaders(c.rawHeaders),
          contentHeaders(original.rawHeaders),
          'same headers, same order, none added',
        );
      },
    );
  }

  // ESC ] title BEL, a colour, CR, quote, backslash, printf's own % and \0 and \c, DEL, C1 as UTF-8.
  const CONTROL_TEXT = '{"t":"\x1b]0;pwned\x07\x1b[31mred\r\nit\'s \\0033 \\c %s %b \x7f \u009b é"}';
  const bodies: [string, Buffer][] = [
    ['UTF-8 text', Buffer.from(CONTROL_TEXT)],
    ['not UTF-8', Buffer.concat([Buffer.from(CONTROL_TEXT), Buffer.from([0xff, 0xfe, 0x80, 0x9b, 0x30, 0x0a, 0x01])])],
    ['plain text over 128 KiB (one exec argument at most)', Buffer.from(`${'{"k":"v"},'.repeat(20_000)} it's \\n`)],
  ];
  for (const [kind, body] of bodies) {
    test(
      `curl of a body with terminal controls (${kind}) prints none, and bash and sh send the exact bytes and headers`,
      { skip: HAS_CURL ? false : 'curl is not installed' },
      async () => {
        const headers: [string, string][] = [
          ['Content-Type', 'application/octet-stream'],
          ['X-Raw-C1', 'a\u009bb'], // the byte 0x9b as received (not UTF-8; the body is a Buffer, so node:http writes latin1)
          ['X-Utf8-C1', Buffer.from('a\u009bb ✓').toString('latin1')], // U+009B as UTF-8
          ['X-Latin1', 'caf\u00e9'], // 0xe9 alone: not UTF-8
          ['X-Quote', `it's \\ "x"`],
        ];
        const logId = (await rawRequest(`${t.engine.receiverUrl}/webhook/${ep}/ctl`, { headers, body })).json().data.id;
        const url = `${target.url}/ctl?q=1`;
        const d = (await exportAs(logId, `format=curl&target=${encodeURIComponent(url)}`)).body.data;
        // eslint-disable-next-line no-control-regex -- no control character may be left
        assert.doesNotMatch(d.content, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/, 'nothing a terminal acts on');
        assert.ok(d.content.startsWith("printf '%b' '"), d.content.slice(0, 200));
        if (body.includes(0x1b)) assert.ok(d.content.includes('\\0033]0;pwned\\0007'), d.content);
        const original = (await t.api('GET', `/api/webhooks/logs/${logId}`)).body.data;
        for (const shell of ['bash', 'sh']) {
          const got = target.next();
          await runScript(shell, `${d.content.trimEnd()} --silent --output /dev/null\n`);
          const c = await got;
          assert.equal(c.method, 'POST', shell);
          assert.equal(c.url, '/ctl?q=1', shell);
          assert.ok(c.body.equals(body), `${shell}: body bytes identical`);
          assert.deepEqual(
            contentHeaders(c.rawHeaders),
            contentHeaders(original.rawHeaders),
            `${shell}: same header bytes`,
          );
          assert.deepEqual(contentHeaders(c.rawHeaders).slice(1, 4), [
            ['x-raw-c1', 'a\u009bb'],
            ['x-utf8-c1', headers[2]![1]],
            ['x-latin1', 'caf\u00e9'],
          ]);
        }
      },
    );
  }

  test('the default curl target is the endpoint receiver URL with the original path and query', async () => {
    const d = (await exportAs(textLog, 'format=curl')).body.data;
    assert.ok(d.content.includes(`'${t.engine.receiverUrl}/webhook/${ep}/in/path?x=1&x=2&y=a+b'`), d.content);
  });

  test('redact=true hides credentials in the export; the owner default shows them', async () => {
    const open = (await exportAs(textLog, 'format=curl')).body.data.content;
    assert.ok(open.includes('sk_test_123'));
    const hidden = (await exportAs(textLog, 'format=curl&redact=true')).body.data.content;
    assert.ok(!hidden.includes('sk_test_123') && !hidden.includes('session=xyz'));
    assert.ok(hidden.includes('Authorization: [redacted]'));
  });

  test('raw HTTP: CRLF, target Host, and sending it over TCP delivers the same bytes', async () => {
    for (const logId of [textLog, binaryLog]) {
      const d = (await exportAs(logId, `format=http&target=${encodeURIComponent(`${target.url}/raw?z=9`)}`)).body.data;
      assert.equal(d.contentType, 'message/http');
      const bytes = Buffer.from(d.content, d.contentEncoding);
      assert.equal(d.contentEncoding, logId === binaryLog ? 'base64' : 'utf8');
      assert.ok(bytes.toString('latin1').startsWith(`POST /raw?z=9 HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\n`));
      const got = target.next();
      const socket = connect(target.port, '127.0.0.1');
      socket.on('data', () => socket.end());
      socket.write(bytes);
      const c = await got;
      socket.destroy();
      assert.ok(c.body.equals(logId === binaryLog ? BINARY_BODY : Buffer.from(TEXT_BODY)));
    }
  });

  test('JSON is the log detail: the delivery as received, without what this engine answered or can explain', async () => {
    const d = (await exportAs(textLog, 'format=json')).body.data;
    assert.equal(d.filename, `${textLog}.json`);
    // The export is the delivery to hand to someone else; the answer and `explainable` are this engine's.
    const { answer, answerUnknown, explainable, ...delivery } = (await t.api('GET', `/api/webhooks/logs/${textLog}`))
      .body.data;
    assert.equal(answer.status, 200);
    assert.equal(answerUnknown, null);
    assert.equal(explainable, false);
    assert.deepEqual(JSON.parse(d.content), delivery);
  });

  test('HAR 1.2 is structurally valid for text and binary bodies', async () => {
    const text = JSON.parse((await exportAs(textLog, 'format=har')).body.data.content);
    assertHar(text);
    const req = text.log.entries[0].request;
    assert.equal(req.method, 'POST');
    assert.equal(req.postData.text, TEXT_BODY);
    assert.equal(req.postData.mimeType, 'text/plain; charset=utf-8');
    assert.equal(req.bodySize, Buffer.byteLength(TEXT_BODY));
    assert.deepEqual(req.queryString, [
      { name: 'x', value: '1' },
      { name: 'x', value: '2' },
      { name: 'y', value: 'a b' },
    ]);
    assert.deepEqual(req.cookies, [
      { name: 'a', value: '1' },
      { name: 'session', value: 'xyz' },
    ]);
    assert.ok(req.headers.some((h: any) => h.name === 'X-Weird'));
    const bin = JSON.parse((await exportAs(binaryLog, 'format=har')).body.data.content);
    assertHar(bin);
    const pd = bin.log.entries[0].request.postData;
    assert.equal(pd.encoding, 'base64');
    assert.ok(Buffer.from(pd.text, 'base64').equals(BINARY_BODY));
    assert.equal(bin.log.entries[0].request.bodySize, BINARY_BODY.length);
  });

  test('bad format, redact or target is 400 naming it; another account gets 404', async () => {
    for (const [qs, field] of [
      ['format=xml', 'format'],
      ['', 'format'],
      ['format=curl&redact=maybe', 'redact'],
      ['format=curl&target=ftp%3A%2F%2Fx', 'target'],
      ['format=curl&target=not-a-url', 'target'],
    ]) {
      const r = await exportAs(textLog, qs!);
      assert.equal(r.status, 400, qs);
      assert.ok(r.body.error.message.includes(field!), r.body.error.message);
    }
    const other = await t.engine.issueToken('teammate');
    const r = await t.api('GET', `/api/webhooks/logs/${textLog}/export?format=json`, { token: other });
    assert.equal(r.status, 404);
  });
});
