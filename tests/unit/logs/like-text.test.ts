import assert from 'node:assert/strict';
import initSqlJs, { type Database } from 'sql.js';
import { before, describe, test } from '../../helpers/node-test.ts';
import { likeMatchesBytes, likeTerm } from '../../../server/logs/like-text.ts';
import { indexProbe, signatureWords } from '../../../server/logs/search-index.ts';
import { madeUpTerm, randomBody, randomHeaders, randomPath, seeded, termFrom } from '../../helpers/search-corpus.ts';

/** SQLite itself, as the search used to ask it. */
let db: Database;
const escaped = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
function sqliteLike(text: string | Uint8Array, term: string): boolean {
  const sql = typeof text === 'string' ? "SELECT ? LIKE ? ESCAPE '\\'" : "SELECT CAST(? AS TEXT) LIKE ? ESCAPE '\\'";
  return db.exec(sql, [text, escaped(term)])[0]!.values[0]![0] === 1;
}

/** Whether some row has every bit the term's probe asks for (words are 48-bit, so split before `&`). */
function probePasses(rows: readonly (readonly number[])[], term: string): boolean {
  const has = (w: number, m: number) =>
    ((w % 2 ** 32) & (m % 2 ** 32)) >>> 0 === m % 2 ** 32 &&
    (Math.floor(w / 2 ** 32) & Math.floor(m / 2 ** 32)) >>> 0 === Math.floor(m / 2 ** 32);
  const probe = indexProbe(likeTerm(term));
  return rows.some((row) => probe.every(({ column, mask }) => has(row[column]!, mask)));
}

describe('search text as LIKE sees it', () => {
  before(async () => {
    db = new (await initSqlJs()).Database();
  });

  test('the exact check agrees with LIKE on bodies, paths and headers, and the index never misses', () => {
    const r = seeded(12);
    let matched = 0;
    let compared = 0;
    for (let i = 0; i < 400; i++) {
      const body = randomBody(r);
      const path = randomPath(r);
      const headers = JSON.stringify(randomHeaders(r));
      const rows = signatureWords(path, headers, body);
      for (let k = 0; k < 12; k++) {
        const term = k % 4 === 3 ? madeUpTerm(r) : termFrom(r, [body, path, headers][k % 3]!);
        const t = likeTerm(term);
        const inBody = sqliteLike(body, term);
        const inPath = sqliteLike(path, term);
        const inHeaders = sqliteLike(headers, term);
        const where = `term ${JSON.stringify(term)}, body ${body.toString('hex').slice(0, 200)}`;
        assert.equal(likeMatchesBytes(t, body), inBody, `body: ${where}`);
        // Paths and headers are checked by LIKE itself; their bytes as stored agree all the same.
        assert.equal(likeMatchesBytes(t, Buffer.from(path)), inPath, `path: ${where}`);
        assert.equal(likeMatchesBytes(t, Buffer.from(headers)), inHeaders, `headers: ${where}`);
        if (inBody || inPath || inHeaders) {
          matched++;
          assert.ok(probePasses(rows, term), `index missed: ${where}`);
        }
        compared++;
      }
    }
    // Both outcomes are exercised, not just one.
    assert.ok(matched > 1000 && compared - matched > 500, `${matched} of ${compared} matched`);
  });

  test('what LIKE does with odd input', () => {
    const cases: [Uint8Array | string, string, boolean][] = [
      // A NUL ends the text...
      [Buffer.from('abc\u0000def'), 'def', false],
      // ...and the pattern, which then must end the text.
      ['xab', 'ab\u0000zz', true],
      ['abx', 'ab\u0000zz', false],
      ['anything', '\u0000', true],
      // Only ASCII folds: not the Kelvin sign, not a dotted capital I, as JavaScript's toLowerCase would.
      [Buffer.from('x\u212ay'), 'xky', false],
      [Buffer.from('x\u0130y'), 'xi', false],
      ['HÉLLO', 'héllo', false],
      ['HÉLLO', 'hÉllo', true],
      // SQLite reads a stray continuation byte as that code point, and an overlong form as U+FFFD.
      [Buffer.from([0x61, 0xa9, 0x62]), 'a\u00a9b', true],
      [Buffer.from([0x61, 0xc1, 0x81, 0x62]), 'a\ufffdb', true],
      [Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62]), 'a\ufffdb', true],
      // U+FFFF, though, is read as itself.
      [Buffer.from('a\uffffb'), 'a\ufffdb', false],
      // A lead byte takes every continuation byte after it.
      [Buffer.from([0xc3, 0xa9, 0xa9]), '\u00e9', false],
      [Buffer.from([0xe0, 0x83, 0xa9]), '\u00e9', true],
    ];
    for (const [text, term, expected] of cases) {
      assert.equal(sqliteLike(text, term), expected, `SQLite: ${JSON.stringify(term)}`);
      const t = likeTerm(term);
      const got = likeMatchesBytes(t, typeof text === 'string' ? Buffer.from(text) : text);
      assert.equal(got, expected, `likeMatches: ${JSON.stringify(term)} in ${Buffer.from(text).toString('hex')}`);
    }
  });
});
