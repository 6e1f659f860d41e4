import { describe, expect, test } from 'vitest';
import type { LogSummary } from '../api/client.ts';
import { appendPage, newAtTop, prependHead } from './delivery-pages.ts';

const rows = (...ids: string[]): LogSummary[] => ids.map((id) => ({ id }) as LogSummary);
const ids = (logs: LogSummary[]): string[] => logs.map((l) => l.id);

describe('pages of deliveries', () => {
  test('a next page goes below; rows it repeats (offsets moved by new deliveries) are kept once', () => {
    expect(ids(appendPage(rows('e', 'd', 'c'), rows('c', 'b', 'a')))).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(ids(appendPage(rows('b'), rows('b')))).toEqual(['b']);
    expect(ids(appendPage([], rows('b', 'a')))).toEqual(['b', 'a']);
  });

  test('rows new on top of a reloaded first page are counted; a first load counts none', () => {
    expect(newAtTop(rows('c', 'b'), rows('e', 'd', 'c', 'b'))).toBe(2);
    expect(newAtTop(rows('c', 'b'), rows('c', 'b'))).toBe(0);
    expect(newAtTop([], rows('b', 'a'))).toBe(0);
    // Nothing in common (more arrived than a page holds): all of them.
    expect(newAtTop(rows('a'), rows('z', 'y'))).toBe(2);
  });

  test('a first page merged on top keeps the rows loaded below', () => {
    const merged = prependHead(rows('c', 'b', 'a'), rows('e', 'd', 'c'));
    expect(ids(merged.logs)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(merged.added).toBe(2);
    expect(prependHead(rows('a'), rows('a')).added).toBe(0);
  });
});
