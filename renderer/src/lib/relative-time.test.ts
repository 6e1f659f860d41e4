import { describe, expect, test } from 'vitest';
import { relativeTime } from './relative-time.ts';

const NOW = Date.parse('2026-11-24T12:00:00Z');

describe('relativeTime', () => {
  test.each([
    [0, 'just now'],
    [4_999, 'just now'],
    [5_000, '5 s ago'],
    [59_999, '59 s ago'],
    [60_000, '1 min ago'],
    [3_599_999, '59 min ago'],
    [3_600_000, '1 h ago'],
    [86_399_999, '23 h ago'],
    [86_400_000, '1 d ago'],
    [30 * 86_400_000, '30 d ago'],
    [-60_000, 'just now'],
  ])('%i ms ago reads "%s"', (ago, words) => {
    expect(relativeTime(NOW - ago, NOW)).toBe(words);
  });
});
