import { describe, expect, test } from 'vitest';
import { rowOfOffset, rowSpan, wrapText } from './body-views-lines.ts';

const rowsOf = (text: string, cols: number): string[] => {
  const w = wrapText(text, cols);
  return Array.from({ length: w.rows }, (_, r) => {
    const [from, to] = rowSpan(text, w, r);
    return text.slice(from, to);
  });
};

describe('long text cut into rows', () => {
  test('each line is cut every `cols` characters; an empty line is a row; the newline is in no row', () => {
    expect(rowsOf('abcdefgh\n\nxy', 3)).toEqual(['abc', 'def', 'gh', '', 'xy']);
    expect(rowsOf('', 3)).toEqual(['']);
    expect(rowsOf('abc\n', 3)).toEqual(['abc', '']);
  });

  test('an emoji (a surrogate pair) is never split across rows', () => {
    const text = 'ab😀cd';
    expect(rowsOf(text, 3)).toEqual(['ab😀', 'cd']);
    expect(rowsOf(text, 3).join('')).toBe(text);
  });

  test('the row of an offset, for scrolling to a match', () => {
    const w = wrapText('abcdefgh\n\nxy', 3);
    expect([0, 2, 3, 7, 8, 9, 10, 11].map((o) => rowOfOffset(w, o))).toEqual([0, 0, 1, 2, 2, 3, 4, 4]);
  });

  test('a 2 MB body on one line is thousands of short rows, found without copying it', () => {
    const text = 'x'.repeat(2 * 1024 * 1024);
    const w = wrapText(text, 100);
    expect(w.rows).toBe(Math.ceil(text.length / 100));
    expect(rowSpan(text, w, 12_345)).toEqual([1_234_500, 1_234_600]);
    expect(rowOfOffset(w, 1_234_599)).toBe(12_345);
  });
});
