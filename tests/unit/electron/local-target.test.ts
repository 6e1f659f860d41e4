import assert from 'node:assert/strict';
import { localTarget } from '../../../electron/local-target.ts';
import { test } from '../../helpers/node-test.ts';

const refused = (host: string): string =>
  `The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); ${host}/ is sent by the team server.`;

test('the desktop app sends to loopback only: localhost, 127.0.0.0/8 and [::1], over http or https', () => {
  const accepted: [string, string][] = [
    ['http://localhost:3000/x', 'http://localhost:3000/x'],
    ['http://LOCALHOST:3000/x?a=1', 'http://localhost:3000/x?a=1'],
    ['https://localhost/', 'https://localhost/'],
    ['http://127.0.0.1:4000/hook', 'http://127.0.0.1:4000/hook'],
    ['http://127.0.0.5/', 'http://127.0.0.5/'],
    ['http://127.255.255.254/', 'http://127.255.255.254/'],
    // The URL parser writes these short forms of 127.0.0.1 out in full.
    ['http://127.1/', 'http://127.0.0.1/'],
    ['http://2130706433/', 'http://127.0.0.1/'],
    ['http://[::1]:8080/', 'http://[::1]:8080/'],
    ['http://[0:0:0:0:0:0:0:1]/', 'http://[::1]/'],
  ];
  for (const [input, href] of accepted) {
    const answer = localTarget(input);
    assert.ok(answer.ok, `${input}: ${answer.ok ? '' : answer.error}`);
    assert.equal(answer.value.href, href);
  }
});

test('every other target is refused with one sentence naming it', () => {
  const cases: [string, string][] = [
    ['http://10.0.0.5/', refused('http://10.0.0.5')],
    ['http://192.168.1.20:3000/x', refused('http://192.168.1.20:3000')],
    ['http://169.254.169.254/latest/meta-data', refused('http://169.254.169.254')],
    ['http://localhost.evil.com/', refused('http://localhost.evil.com')],
    ['http://127.0.0.1.nip.io/', refused('http://127.0.0.1.nip.io')],
    ['http://0.0.0.0/', refused('http://0.0.0.0')],
    ['http://[::]/', refused('http://[::]')],
    ['http://[::ffff:127.0.0.1]/', refused('http://[::ffff:7f00:1]')],
    ['https://example.com/', refused('https://example.com')],
    [
      'http://user:pw@localhost/',
      'The target URL must not carry a user name or password; send an Authorization header.',
    ],
    ['http://user@127.0.0.1/', 'The target URL must not carry a user name or password; send an Authorization header.'],
    ['file:///etc/passwd', 'The desktop app sends only over http:// or https:// (not file:).'],
    ['ftp://localhost/', 'The desktop app sends only over http:// or https:// (not ftp:).'],
    ['localhost:3000', 'The desktop app sends only over http:// or https:// (not localhost:).'],
    ['/hook', '"/hook" is not an absolute URL; the desktop app sends only to this computer.'],
  ];
  for (const [input, error] of cases) assert.deepEqual(localTarget(input), { ok: false, error }, input);
});
