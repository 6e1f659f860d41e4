import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { test } from '../../helpers/node-test.ts';
import fc from 'fast-check';
import { buildCurl, printfEscaped, shellWord } from '../../../server/export/curl-builder.ts';
import type { StoredRequest } from '../../../server/export/request-parts.ts';

// eslint-disable-next-line no-control-regex -- what must never be printed raw
const TERMINAL_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
const SHELLS = ['bash', 'sh'];

/** What the shell makes of the word: printf '%s' writes its bytes back. */
const throughShell = (shell: string, word: string): Buffer => execFileSync(shell, ['-c', `printf '%s' ${word}`]);

/** A command is safe to print when it is UTF-8 without any control character but newline and tab. */
function assertPrintable(cmd: string): void {
  assert.ok(isUtf8(Buffer.from(cmd, 'utf8')));
  assert.doesNotMatch(cmd, TERMINAL_CONTROL, JSON.stringify(cmd));
}

const request = (over: Partial<StoredRequest>): StoredRequest => ({
  method: 'POST',
  body: Buffer.alloc(0),
  rawHeaders: [],
  ...over,
});

test('printfEscaped: backslash, quote, controls and non-UTF-8 bytes as escapes, text as itself', () => {
  assert.equal(
    printfEscaped(Buffer.from("a\\b'c\x1b[31m\x07\r\nd\te ✓")),
    'a\\\\b\\0047c\\0033[31m\\0007\\0015\nd\te ✓',
  );
  assert.equal(printfEscaped(Buffer.from('\u009b\x7f')), '\\0302\\0233\\0177', 'C1 as its UTF-8 bytes, DEL');
  // Not UTF-8: every byte outside printable ASCII, one escape each; a digit after an escape stays a digit.
  assert.equal(
    printfEscaped(Buffer.from([0xff, 0x80, 0x30, 0x31, 0x5c, 0x27, 0x41, 0x00])),
    '\\0377\\0200' + '01' + '\\\\\\0047A\\0000',
  );
});

test('shellWord: plain text stays single-quoted; anything else is exact through bash and sh and printable', () => {
  assert.equal(shellWord(Buffer.from("X-A: it's ✓")), `'X-A: it'\\''s ✓'`);
  for (const bytes of [
    Buffer.from('X-A: a\x1b]0;t\x07b\rc'),
    Buffer.from('X-A: a\u009bb'),
    Buffer.from([0x58, 0x3a, 0x20, 0x9b, 0xff, 0x27, 0x5c]),
  ]) {
    const word = shellWord(bytes);
    assertPrintable(word);
    for (const sh of SHELLS) assert.ok(throughShell(sh, word).equals(bytes), `${sh}: ${word}`);
  }
});

test('shellWord is exact for any bytes an argument can hold (property)', () => {
  fc.assert(
    fc.property(
      // No NUL (an argument ends there) and no trailing newline (command substitution strips it; headers and URLs have none).
      fc
        .uint8Array({ maxLength: 40 })
        .map((a) => Buffer.from(a))
        .filter((b) => !b.includes(0) && b.at(-1) !== 0x0a),
      (bytes) => {
        const word = shellWord(bytes);
        assertPrintable(word);
        assert.ok(throughShell('sh', word).equals(bytes), word);
      },
    ),
    { numRuns: 60 },
  );
});

test('buildCurl prints no control character for a header value or body holding them', () => {
  const cmd = buildCurl(
    request({
      body: Buffer.from('x\x1b]0;title\x07\x1b[31m\rz'),
      rawHeaders: [
        ['X-Esc', 'a\x1b[2Jb'],
        ['X-C1', 'a\u009bb'],
        ['X-Plain', 'fine'],
      ],
    }),
    'http://127.0.0.1:9/in',
  );
  assertPrintable(cmd);
  assert.ok(cmd.startsWith(`printf '%b' 'x\\0033]0;title\\0007\\0033[31m\\0015z' | curl`), cmd);
  assert.ok(cmd.includes(`-H "$(printf '%b' 'X-Esc: a\\0033[2Jb')"`), cmd);
  assert.ok(cmd.includes(`-H "$(printf '%b' 'X-C1: a\\0233b')"`), 'the received byte 0x9b, as one byte');
  assert.ok(cmd.includes(`-H 'X-Plain: fine'`));
  assert.ok(cmd.endsWith('--data-binary @-'));
});

test('buildCurl keeps plain text bodies inline and sends large ones through printf', () => {
  const small = buildCurl(request({ body: Buffer.from('it\'s {"a":1}\n\tok') }), 'http://127.0.0.1:9/in');
  assert.ok(small.endsWith(`--data-raw 'it'\\''s {"a":1}\n\tok'`), small);
  const large = buildCurl(request({ body: Buffer.from('a'.repeat(64 * 1024 + 1)) }), 'http://127.0.0.1:9/in');
  assert.ok(
    large.startsWith(`printf '%b' 'aaa`) && large.endsWith('--data-binary @-'),
    'over 64 KiB: not an exec argument',
  );
  assert.ok(buildCurl(request({ body: Buffer.from('a'.repeat(64 * 1024)) }), 'http://x/').includes('--data-raw'));
});
