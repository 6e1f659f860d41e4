import { describe, expect, test } from 'vitest';
import { viewOf } from './view-route.ts';

describe('viewOf', () => {
  test.each([
    ['#/metrics', 'metrics'],
    ['#/settings', 'settings'],
    ['', 'deliveries'],
    ['#/', 'deliveries'],
    ['#/metrics/extra', 'deliveries'],
    ['#/sign-in/abc', 'deliveries'],
  ])('%j shows the %s', (hash, view) => {
    expect(viewOf(hash)).toBe(view);
  });
});
