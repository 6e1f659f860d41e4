import { ConfigError } from '../errors/config-error.ts';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MAX_MS = 10 * 365 * UNIT_MS.d;

/** `500ms`, `10s`, `15m`, `12h`, `30d`, or a bare number of seconds, to milliseconds. */
export function parseDuration(input: string, field = 'duration'): number {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(input.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[(m[2] ?? 's') as keyof typeof UNIT_MS] : NaN;
  if (!Number.isSafeInteger(ms) || ms <= 0 || ms > MAX_MS) {
    throw new ConfigError(
      `${field} must be a positive duration such as 10s, 15m, 12h or 30d, at most 10 years (got "${input}").`,
      field,
    );
  }
  return ms;
}

export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', UNIT_MS.d],
    ['h', UNIT_MS.h],
    ['m', UNIT_MS.m],
    ['s', UNIT_MS.s],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
