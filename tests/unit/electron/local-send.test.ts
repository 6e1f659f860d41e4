import assert from 'node:assert/strict';
import {
  builtRequestRefusal,
  MAX_LOCAL_BODY_BYTES,
  parseLocalRequest,
  sendFromThisComputer,
  type LocalRequest,
} from '../../../electron/local-send.ts';
import type { SendInput, SendResult } from '../../../server/replay/http-sender.ts';
import { test } from '../../helpers/node-test.ts';

const BODY = '{"id":"evt_1"}';

/** What `POST /api/replay/:id/outgoing` answers for a replay to http://127.0.0.1:3000/hook. */
const request = (over: Partial<Record<keyof LocalRequest, unknown>> = {}): Record<string, unknown> => ({
  method: 'POST',
  url: 'http://127.0.0.1:3000/hook/sub?x=1',
  headers: [
    ['Host', '127.0.0.1:3000'],
    ['Content-Type', 'application/json'],
    ['Content-Length', String(BODY.length)],
    ['Stripe-Signature', 't=1,v1=ab'],
    ['X-Forwarded-Proto', 'http'],
  ],
  body: Buffer.from(BODY).toString('base64'),
  bodyEncoding: 'base64',
  ...over,
});

test('a request the engine built is taken as is: the target, the method, the headers in order, the bytes, the wait', () => {
  const parsed = parseLocalRequest(request({ timeoutMs: 5000 }));
  assert.ok(parsed.ok);
  const { url, ...rest } = parsed.value;
  assert.equal(url.href, 'http://127.0.0.1:3000/hook/sub?x=1');
  assert.deepEqual(rest, {
    method: 'POST',
    headers: [
      ['Host', '127.0.0.1:3000'],
      ['Content-Type', 'application/json'],
      ['Content-Length', '14'],
      ['Stripe-Signature', 't=1,v1=ab'],
      ['X-Forwarded-Proto', 'http'],
    ],
    body: Buffer.from(BODY),
    timeoutMs: 5000,
  });
  // A utf8 body is its UTF-8 bytes; no timeout given: the engine's default for a replay.
  const utf8 = parseLocalRequest(request({ body: 'é', bodyEncoding: 'utf8', headers: [] }));
  assert.ok(utf8.ok);
  assert.deepEqual([utf8.value.body, utf8.value.timeoutMs], [Buffer.from([0xc3, 0xa9]), 30_000]);
  // The largest body taken: exactly the limit.
  const largest = Buffer.alloc(MAX_LOCAL_BODY_BYTES, 1).toString('base64');
  assert.equal(parseLocalRequest(request({ body: largest, headers: [] })).ok, true);
});

test('each malformed field is refused with a sentence naming it', () => {
  const cases: [unknown, string][] = [
    [null, 'Give the request to send (method, url, headers, body).'],
    ['POST http://localhost/', 'Give the request to send (method, url, headers, body).'],
    [request({ url: undefined }), 'url must be the target URL, a string.'],
    [
      request({ url: 'http://10.0.0.5/' }),
      'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://10.0.0.5/ is sent by the team server.',
    ],
    [request({ method: 'CONNECT' }), 'method must be one of: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS.'],
    [request({ method: 'post' }), 'method must be one of: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS.'],
    [request({ bodyEncoding: 'hex' }), 'bodyEncoding must be utf8 or base64.'],
    [request({ body: 42 }), 'body must be a string.'],
    [request({ body: 'not base64!' }), 'body is not valid base64.'],
    [
      request({ body: Buffer.alloc(MAX_LOCAL_BODY_BYTES + 1).toString('base64'), headers: [] }),
      `The body must be at most ${MAX_LOCAL_BODY_BYTES} bytes.`,
    ],
    [request({ headers: { Host: 'x' } }), 'headers must be a list of [name, value] pairs of strings.'],
    [request({ headers: [['Host']] }), 'headers must be a list of [name, value] pairs of strings.'],
    [request({ headers: [['X-N', 1]] }), 'headers must be a list of [name, value] pairs of strings.'],
    [request({ headers: Array.from({ length: 2001 }, () => ['X-A', 'b']) }), 'At most 2000 headers are sent.'],
    [request({ headers: [['Bad Name', 'x']] }), '"Bad Name" is not a valid header name.'],
    [
      request({ headers: [['X-A', 'a\r\nX-Injected: 1']] }),
      'The header X-A must be at most 8192 characters without line breaks.',
    ],
    [
      request({ headers: [['X-A', 'a'.repeat(8193)]] }),
      'The header X-A must be at most 8192 characters without line breaks.',
    ],
    [request({ headers: [['Content-Length', '5']] }), "Content-Length must be the body's size (14 bytes)."],
    [
      request({ headers: [['Transfer-Encoding', 'chunked']] }),
      "The header Transfer-Encoding is the connection's; the desktop app does not send it.",
    ],
    [
      request({ headers: [['Connection', 'keep-alive']] }),
      "The header Connection is the connection's; the desktop app does not send it.",
    ],
    [
      request({ headers: [['Host', 'internal.corp:80']] }),
      'The Host header must name the target (127.0.0.1:3000), not internal.corp:80.',
    ],
    [request({ timeoutMs: 0 }), 'timeoutMs must be a whole number of milliseconds between 1 and 120000.'],
    [request({ timeoutMs: 120_001 }), 'timeoutMs must be a whole number of milliseconds between 1 and 120000.'],
    [request({ timeoutMs: 1.5 }), 'timeoutMs must be a whole number of milliseconds between 1 and 120000.'],
    [request({ timeoutMs: '100' }), 'timeoutMs must be a whole number of milliseconds between 1 and 120000.'],
  ];
  for (const [input, error] of cases)
    assert.deepEqual(parseLocalRequest(input), { ok: false, error }, JSON.stringify(input).slice(0, 120));
});

test('the send call: a checked request goes to the injected sender, its result comes back clone-safe with the body in base64', async () => {
  const sent: SendInput[] = [];
  const answer = await sendFromThisComputer(request(), async (input) => {
    sent.push(input);
    return {
      status: 201,
      responseHeaders: [
        ['Content-Type', 'text/plain'],
        ['Set-Cookie', 'a=1'],
        ['Set-Cookie', 'b=2'],
      ],
      responseBody: Buffer.from([0xff, 0x00, 0x41]),
      responseTruncated: true,
      responseTime: 12,
      error: null,
    } satisfies SendResult;
  });
  assert.equal(sent.length, 1);
  assert.equal(sent[0]!.url.href, 'http://127.0.0.1:3000/hook/sub?x=1');
  assert.deepEqual(sent[0]!.body, Buffer.from(BODY));
  assert.deepEqual(answer, {
    ok: true,
    result: {
      status: 201,
      responseHeaders: [
        ['Content-Type', 'text/plain'],
        ['Set-Cookie', 'a=1'],
        ['Set-Cookie', 'b=2'],
      ],
      responseBody: '/wBB',
      responseTruncated: true,
      responseTime: 12,
      error: null,
    },
  });
  // Nothing in it but plain data: it crosses IPC as is.
  assert.deepEqual(structuredClone(answer), answer);
  assert.equal(Buffer.isBuffer((answer as { result: { responseBody: unknown } }).result.responseBody), false);
});

test('the target failing is a result (like a replay the engine sent); a refused request sends nothing', async () => {
  const failure = await sendFromThisComputer(request(), async () => ({
    status: null,
    responseHeaders: [],
    responseBody: Buffer.alloc(0),
    responseTruncated: false,
    responseTime: 3,
    error: { code: 'TARGET_UNREACHABLE', message: 'http://127.0.0.1:3000/hook/sub?x=1 could not be reached: refused.' },
  }));
  assert.deepEqual(failure, {
    ok: true,
    result: {
      status: null,
      responseHeaders: [],
      responseBody: '',
      responseTruncated: false,
      responseTime: 3,
      error: {
        code: 'TARGET_UNREACHABLE',
        message: 'http://127.0.0.1:3000/hook/sub?x=1 could not be reached: refused.',
      },
    },
  });
  let calls = 0;
  const refused = await sendFromThisComputer(request({ url: 'http://localhost.evil.com/' }), async () => {
    calls++;
    throw new Error('must not be called');
  });
  assert.deepEqual(refused, {
    ok: false,
    error:
      'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://localhost.evil.com/ is sent by the team server.',
  });
  assert.equal(calls, 0);
});

test("a forward's request (built by the team server, body as large as a delivery's): the target and headers checked as a replay's", () => {
  const big = Buffer.alloc(MAX_LOCAL_BODY_BYTES + 1, 'a');
  const input = (url: string, headers: [string, string][], body = big): SendInput => ({
    url: new URL(url),
    method: 'POST',
    headers,
    body,
    timeoutMs: 1000,
  });
  const host: [string, string] = ['Host', 'localhost:3000'];
  assert.equal(
    builtRequestRefusal(input('http://localhost:3000/hooks/a?x=1', [host, ['Content-Length', String(big.length)]])),
    null,
  );
  assert.equal(
    builtRequestRefusal(input('http://10.0.0.5:3000/hooks', [])),
    'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://10.0.0.5:3000/ is sent by the team server.',
  );
  assert.equal(
    builtRequestRefusal(input('http://localhost:3000/hooks', [['Host', 'intranet.example.com']])),
    'The Host header must name the target (localhost:3000), not intranet.example.com.',
  );
  assert.equal(
    builtRequestRefusal(input('http://localhost:3000/hooks', [host, ['Content-Length', '5']])),
    `Content-Length must be the body's size (${big.length} bytes).`,
  );
  assert.equal(
    builtRequestRefusal(input('http://localhost:3000/hooks', [host, ['Transfer-Encoding', 'chunked']])),
    "The header Transfer-Encoding is the connection's; the desktop app does not send it.",
  );
});
