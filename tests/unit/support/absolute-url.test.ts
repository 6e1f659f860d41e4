import assert from 'node:assert/strict';
import { test } from '../../helpers/node-test.ts';
import { checkHttpUrl, isAbsoluteHttpUrl } from '../../../server/support/absolute-url.ts';

// Each accepted string with the href the parser makes of it.
const accepted: [string, string][] = [
  ['http://127.0.0.1:3000/hook', 'http://127.0.0.1:3000/hook'],
  ['https://example.com', 'https://example.com/'],
  ['HTTP://Example.COM/A?b=1#c', 'http://example.com/A?b=1#c'],
  ['http://[::1]:8080/x', 'http://[::1]:8080/x'],
  ['http://localhost', 'http://localhost/'],
  ['http://u:p@host/', 'http://u:p@host/'],
  // The WHATWG parser's lenient forms for special schemes: it supplies the missing slashes.
  ['http:host/x', 'http://host/x'],
  ['http:///host', 'http://host/'],
  [' http://host ', 'http://host/'],
  ['https://bücher.example/ä', 'https://xn--bcher-kva.example/%C3%A4'],
];

const unparsable = [
  '',
  'host',
  '/relative/path',
  '//host/x',
  'http:',
  'http://',
  'https://?',
  'http://:80',
  'http://a b',
  'http://host:99999',
  'http://[::1',
];

const otherSchemes: [string, string][] = [
  ['ftp://host/x', 'ftp'],
  // A common slip: without `http://` the host reads as a scheme.
  ['localhost:3000', 'localhost'],
  ['file:///etc/passwd', 'file'],
  ['ws://host', 'ws'],
  ['javascript:alert(1)', 'javascript'],
  ['mailto:a@b.c', 'mailto'],
  ['data:text/plain,x', 'data'],
];

test('accepts absolute http and https URLs, parsed as the WHATWG parser does', () => {
  for (const [input, href] of accepted) {
    const r = checkHttpUrl(input);
    assert.ok(r.ok, input);
    assert.equal(r.url.href, href, input);
    assert.equal(isAbsoluteHttpUrl(input), true, input);
  }
});

test('refuses what does not parse without a base, saying so', () => {
  for (const input of unparsable) {
    assert.deepEqual(checkHttpUrl(input), { ok: false, reason: 'unparsable' }, input);
    assert.equal(isAbsoluteHttpUrl(input), false, input);
  }
});

test('refuses other schemes, naming the scheme', () => {
  for (const [input, protocol] of otherSchemes) {
    assert.deepEqual(checkHttpUrl(input), { ok: false, reason: 'not_http', protocol }, input);
    assert.equal(isAbsoluteHttpUrl(input), false, input);
  }
});
