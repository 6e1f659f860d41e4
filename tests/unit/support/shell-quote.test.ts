import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from '../../helpers/node-test.ts';
import fc from 'fast-check';
import { shellArg, shellQuote } from '../../../server/support/shell-quote.ts';

const SHELLS = ['bash', 'sh'];

/** What a real shell makes of the word: how many arguments, and printf gives the first back unchanged. */
function throughShell(shell: string, word: string): { count: string; value: string } {
  const out = execFileSync(shell, ['-c', `set -- ${word}; printf '%s|%s' "$#" "$1"`]).toString('utf8');
  const bar = out.indexOf('|');
  return { count: out.slice(0, bar), value: out.slice(bar + 1) };
}

const awkward = [
  "it's",
  "''''",
  "'",
  '',
  ' ',
  'a\nb\r\nc\td',
  '$HOME ${HOME} $(id) `id` $((1+1))',
  '"double" \\back\\slash \\\'',
  '* ? [a] ~ ~root {a,b} !1 #no comment',
  '; & | < > && || ( )',
  '%s %% %b \\n',
  '-n',
  'é ✓ 💥 日本語',
  "end with quote'",
];

describe('shellQuote', () => {
  test('exact words', () => {
    assert.equal(shellQuote(''), "''");
    assert.equal(shellQuote('abc'), "'abc'");
    assert.equal(shellQuote("it's"), `'it'\\''s'`);
    assert.equal(shellQuote("''"), `''\\'''\\'''`);
    assert.equal(shellQuote('$x `y` "z"\n'), `'$x \`y\` "z"\n'`);
  });

  for (const shell of SHELLS) {
    test(`one argument, byte for byte, through ${shell}: quotes, newlines, expansions, globs, operators, non-ASCII`, () => {
      for (const s of awkward) {
        assert.deepEqual(throughShell(shell, shellQuote(s)), { count: '1', value: s }, JSON.stringify(s));
      }
    });
  }

  test('exact through bash for any string without NUL (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0') && !/[\uD800-\uDFFF]/.test(s)),
        (s) => {
          assert.deepEqual(throughShell('bash', shellQuote(s)), { count: '1', value: s });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('shellArg', () => {
  test('leaves plain words bare and quotes everything else', () => {
    assert.equal(shellArg('/home/me/.local/share/hookscope'), '/home/me/.local/share/hookscope');
    assert.equal(shellArg('C-3PO_v1.2'), 'C-3PO_v1.2');
    assert.equal(shellArg(''), "''");
    assert.equal(shellArg('/tmp/my dir'), "'/tmp/my dir'");
    assert.equal(shellArg('~/data'), "'~/data'");
    assert.equal(shellArg('/tmp/*'), "'/tmp/*'");
    assert.equal(shellArg("/tmp/it's"), `'/tmp/it'\\''s'`);
    assert.equal(shellArg('/tmp/données'), "'/tmp/données'");
  });

  for (const shell of SHELLS) {
    test(`one argument, byte for byte, through ${shell}`, () => {
      for (const s of [...awkward, '/home/me/data', 'a.b-c_d']) {
        assert.deepEqual(throughShell(shell, shellArg(s)), { count: '1', value: s }, JSON.stringify(s));
      }
    });
  }
});
