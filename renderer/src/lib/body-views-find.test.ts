import { describe, expect, test } from 'vitest';
import { findInText, markedPieces, matchCountText, MAX_MATCHES, stepMatch } from './body-views-find.ts';

describe('find in body', () => {
  test('matches are case-insensitive offsets into the text, without overlaps; the count says "n of m"', () => {
    const m = findInText('Paid, PAID, unpaid; aaaa', 'paid');
    expect(m).toEqual({ starts: [0, 6, 14], ends: [4, 10, 18], capped: false });
    expect(findInText('aaaa', 'aa').starts).toEqual([0, 2]);
    // Lower-casing "İ" would make it two characters and shift every offset after it; the pattern does not.
    expect(findInText('İx paid', 'PAID').starts).toEqual([3]);
    // The query is text, not a pattern.
    expect(findInText('a.b axb (c)', '.').starts).toEqual([1]);
    expect(findInText('a.b axb (c)', '(c)').starts).toEqual([8]);
    expect(findInText('abc', '')).toEqual({ starts: [], ends: [], capped: false });
    expect(matchCountText('paid', 2, 12, false)).toBe('3 of 12');
    expect(matchCountText('paid', 0, 0, false)).toBe('No matches');
    expect(matchCountText('', 0, 0, false)).toBe('');
  });

  test('the count stops at MAX_MATCHES and says so', () => {
    const m = findInText('a'.repeat(MAX_MATCHES + 5), 'a');
    expect([m.starts.length, m.capped]).toEqual([MAX_MATCHES, true]);
    expect(matchCountText('a', 0, m.starts.length, m.capped)).toBe('1 of 10,000+');
    expect(findInText('a'.repeat(MAX_MATCHES), 'a').capped).toBe(false);
  });

  test('Enter and Shift+Enter step round at either end', () => {
    expect([stepMatch(0, 3, 1), stepMatch(2, 3, 1), stepMatch(0, 3, -1), stepMatch(0, 0, 1)]).toEqual([1, 0, 2, 0]);
  });

  test('a span of the text is cut into plain and marked pieces, the current match apart', () => {
    const text = 'one paid two paid three';
    const m = findInText(text, 'paid');
    expect(markedPieces(text, 0, text.length, m, 1)).toEqual([
      { text: 'one ', mark: 'none' },
      { text: 'paid', mark: 'match' },
      { text: ' two ', mark: 'none' },
      { text: 'paid', mark: 'current' },
      { text: ' three', mark: 'none' },
    ]);
    // A row that starts inside a match shows its end marked.
    expect(markedPieces(text, 6, 12, m, 0)).toEqual([
      { text: 'id', mark: 'current' },
      { text: ' two', mark: 'none' },
    ]);
  });
});
