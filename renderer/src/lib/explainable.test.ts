import { describe, expect, test } from 'vitest';
import { explainable } from './explainable.ts';

const entry = (status: number | null, error: { code: string; message: string } | null = null) =>
  ({ status, error }) as never;

describe('explainable: whether Explain is offered', () => {
  test('a failed verification always is', () => {
    expect(explainable({ id: 'log_1', status: 'failed' }, { logId: null, history: [] })).toBe(true);
  });

  test('a verified delivery is once a replay of it answered 400 or more, or got no answer', () => {
    const ok = { id: 'log_1', status: 'success' } as const;
    expect(explainable(ok, { logId: 'log_1', history: [entry(200), entry(399)] })).toBe(false);
    expect(explainable(ok, { logId: 'log_1', history: [entry(200), entry(400)] })).toBe(true);
    expect(
      explainable(ok, { logId: 'log_1', history: [entry(null, { code: 'TARGET_UNREACHABLE', message: 'x' })] }),
    ).toBe(true);
  });

  test('the history read for another delivery does not count', () => {
    expect(explainable({ id: 'log_1', status: 'success' }, { logId: 'log_2', history: [entry(500)] })).toBe(false);
  });
});
