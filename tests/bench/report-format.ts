// How the benchmark's Markdown writes numbers, shared by its report files.
import type { Timings } from './timing.ts';

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const ms = (n: number): string => `${fmt(n, n < 100 ? 1 : 0)} ms`;
export const verdict = (ok: boolean): string => (ok ? 'PASS' : '**FAIL**');
export const timings = (t: Timings): string => `p50 ${ms(t.p50)}, p95 ${ms(t.p95)}, max ${ms(t.max)} (n=${t.n})`;
/** Text for a Markdown table cell inside backticks. */
export const cell = (text: string): string => text.replace(/\|/g, '\\|');
