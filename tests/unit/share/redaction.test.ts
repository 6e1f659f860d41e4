import assert from 'node:assert/strict';
import { test } from '../../helpers/node-test.ts';
import type { HeaderPairs } from '../../../server/logs/log-types.ts';
import { isSensitiveName, REDACTED, redactLog, redactPath, SENSITIVE_NAMES } from '../../../server/share/redaction.ts';
import { SIGNATURE_SCHEMES } from '../../../server/signatures/registry.ts';
import { headerObject } from '../../../server/support/headers.ts';

/** Names a user expects hidden, as headers or query parameters, in the spellings senders use. */
const EXPECTED_SENSITIVE = [
  'Authorization',
  'Proxy-Authorization',
  'Cookie',
  'Set-Cookie',
  'X-API-Key',
  'x-api-key',
  'api_key',
  'apikey',
  'X-Goog-Api-Key',
  'X-Auth-Key',
  'X-Auth-Token',
  'X-CSRF-Token',
  'X-XSRF-TOKEN',
  'token',
  'access_token',
  'refresh_token',
  'private_token',
  'id_token',
  'secret',
  'client_secret',
  'X-Webhook-Secret',
  'password',
  'Password',
  'passwd',
  'pwd',
  'db.password',
  'session',
  'sessionid',
  'SessionId',
  'X-Session-Id',
  'JSESSIONID',
  'PHPSESSID',
  'credential',
  'credentials',
  'X-Amz-Credential',
  'access_key',
  'AWS_ACCESS_KEY_ID',
  'private_key',
  'jwt',
  'X-JWT-Assertion',
  'signature',
  'X-Amz-Signature',
  'X-Twilio-Signature',
  'sig',
  'auth',
  'x-auth',
  'key',
  // Issue 21: query names...
  'pass',
  'passphrase',
  'code',
  'otp',
  'pin',
  'bearer',
  // ...and header names, with the two prefix families.
  'X-Pass',
  'Passphrase',
  'X-Passphrase',
  'X-Otp',
  'DSN',
  'X-Bearer',
  'X-Auth-Code',
  'auth_code',
  'X-Refresh',
  'X-Refresh-Key',
  'x_refresh_id',
  'X-Sig',
  'X-Sig-Key',
  'X-Signed-By',
];

const EXPECTED_VISIBLE = [
  'Content-Type',
  'User-Agent',
  'Accept',
  'Host',
  'X-Request-Id',
  'X-Trace',
  'X-Idempotency-Key',
  'Idempotency-Key',
  'X-GitHub-Event',
  'X-GitHub-Delivery',
  'Webhook-Id',
  'Webhook-Timestamp',
  'X-Slack-Request-Timestamp',
  'X-Shopify-Topic',
  'author',
  'order',
  'keyword',
  'monkey',
  'page',
  'id',
  'event',
  'oauth_state_hint',
  // Neighbours of the exact names and prefixes added for issue 21.
  'passenger',
  'pass_count',
  'codec',
  'zip_code',
  'X-Code-Version',
  'pinned',
  'shipping',
  'X-Otp-Sent',
  'bearers',
  'X-Dsn-Region',
  'Refresh',
  'X-Pass-Through',
];

test('every name a user expects hidden is hidden, in any case and with -, _ or . between words', () => {
  for (const name of EXPECTED_SENSITIVE) assert.equal(isSensitiveName(name), true, name);
  for (const name of ['X_API_KEY', 'X.Api.Key', 'CLIENT-SECRET', 'Refresh-Token'])
    assert.equal(isSensitiveName(name), true, name);
});

test('ordinary names stay visible (exact entries do not match inside words)', () => {
  for (const name of EXPECTED_VISIBLE) assert.equal(isSensitiveName(name), false, name);
});

test('every provider signature header the signature schemes know is hidden', () => {
  for (const header of SIGNATURE_SCHEMES.flatMap((s) => s.headers.signature))
    assert.equal(isSensitiveName(header), true, header);
});

test('the list holds each entry in the compared form, once', () => {
  const names = SENSITIVE_NAMES.map((s) => s.name);
  assert.equal(new Set(names).size, names.length);
  for (const n of names) assert.match(n, /^[a-z0-9]+$/, n);
});

test('redactLog hides rawHeaders (so the headers made from them) and query values by the same rule and keeps the rest', () => {
  const rawHeaders: HeaderPairs = [
    ['Authorization', 'Bearer a'],
    ['Set-Cookie', 'a=1'],
    ['Set-Cookie', 'b=2'],
    ['X-Trace', 't'],
  ];
  const d = {
    id: 'log_1',
    body: Buffer.from('{"password":"in-body"}'),
    rawHeaders,
    query: Object.assign(Object.create(null), { access_token: 'q1', sig: ['s1', 's2'], page: '2' }),
  };
  const r = redactLog(d);
  // The detail's headers object is made from rawHeaders (server/logs/log-views.ts).
  assert.deepEqual(
    { ...headerObject(r.rawHeaders) },
    { authorization: REDACTED, 'set-cookie': [REDACTED, REDACTED], 'x-trace': 't' },
  );
  assert.deepEqual(r.rawHeaders, [
    ['Authorization', REDACTED],
    ['Set-Cookie', REDACTED],
    ['Set-Cookie', REDACTED],
    ['X-Trace', 't'],
  ]);
  assert.deepEqual({ ...r.query }, { access_token: REDACTED, sig: [REDACTED, REDACTED], page: '2' });
  assert.equal(r.body, d.body, 'the body is shared as received');
  assert.equal(d.rawHeaders[0]![1], 'Bearer a', 'the original is not changed');
});

test('redactPath hides every non-empty segment after the first and keeps the shape', () => {
  const cases: [string, string][] = [
    ['/', '/'],
    ['/github', '/github'],
    ['/github/', '/github/'],
    ['/services/T0/B0/xyz', '/services/[redacted]/[redacted]/[redacted]'],
    ['/services//B0/', '/services//[redacted]/'],
    ['//a/b', '//[redacted]/[redacted]'],
    ['/a/%2e%2e', '/a/[redacted]'],
  ];
  for (const [path, shown] of cases) assert.equal(redactPath(path), shown, path);
});
