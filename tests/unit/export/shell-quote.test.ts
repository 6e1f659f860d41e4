import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from '../../helpers/node-test.ts';
import fc from 'fast-check';
import { shellQuote } from '../../../server/export/curl-builder.ts';

/** What `sh` makes of the quoted word: printf prints it back unchanged. */
const throughShell = (s: string): string => execFileSync('sh', ['-c', `printf '%s' ${shellQuote(s)}`]).toString('utf8');

test('shellQuote survives sh for quotes, expansions and control characters', () => {
  for (const s of ["it's", `"$HOME" \`id\` $(id) \\ ! * ? [a] ~`, 'a\nb\r\nc\td', "''''", '', '%s %%', 'é ✓ 💥']) {
    assert.equal(throughShell(s), s);
  }
});

test('shellQuote is exact for any string without NUL (property)', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0') && !/[\uD800-\uDFFF]/.test(s)),
      (s) => {
        assert.equal(throughShell(s), s);
      },
    ),
    { numRuns: 60 },
  );
});
