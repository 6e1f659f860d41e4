import type { ApiSchemas } from '../api/client.ts';

/** 1.2 KB, 3.4 MB: sizes as a row shows them. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** The query string as received, for a row (`?a=1&b=2`). */
export function queryText(query: Record<string, string | string[]>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) parts.push(`${k}=${one}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The verdict in words: "Verified (stripe)", "Failed: no_matching_signature", "Not verified". */
export function verdict(v: { scheme: string; result: string; reason: string | null }): string {
  if (v.result === 'valid') return `Verified (${v.scheme})`;
  if (v.result === 'invalid') return `Failed: ${v.reason ?? 'invalid'}`;
  return 'Not verified';
}

/**
 * How a verdict is coloured: `ok` (green) only for a signature checked and matched,
 * `failed` (red) for a refusal, and `neutral` for a delivery nothing was checked on
 * (validation `none`): accepted is not the same as verified. Keyed by the API's
 * results, so one the engine adds does not compile until it has a tone.
 */
export type VerdictTone = 'ok' | 'failed' | 'neutral';

const TONES: Record<ApiSchemas['Verification']['result'], VerdictTone> = {
  valid: 'ok',
  invalid: 'failed',
  skipped: 'neutral',
};

export function verdictTone(v: Pick<ApiSchemas['Verification'], 'result'>): VerdictTone {
  return TONES[v.result];
}
