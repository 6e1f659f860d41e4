import { percentile } from '../../server/support/percentile.ts';

export interface Timings {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

export function summarize(ms: number[]): Timings {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 0.5) ?? NaN,
    p95: percentile(sorted, 0.95) ?? NaN,
    max: sorted.at(-1) ?? NaN,
  };
}

/**
 * Times `count` sequential calls of `once`, stopping early once `budgetMs` has
 * passed (at least `minCount` calls are made, so a slow case still gets a p95).
 */
export async function timeCalls(
  once: (i: number) => Promise<void>,
  o: { count: number; budgetMs: number; minCount?: number },
): Promise<Timings> {
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < o.count; i++) {
    if (i >= (o.minCount ?? 1) && performance.now() - started > o.budgetMs) break;
    const t0 = performance.now();
    await once(i);
    times.push(performance.now() - t0);
  }
  return summarize(times);
}

/** A GET to the engine's API (loopback only) that fails loudly on anything but 200. */
export async function apiGet<T = any>(apiUrl: string, token: string, path: string, timeoutMs = 60_000): Promise<T> {
  if (!apiUrl.startsWith('http://127.0.0.1:')) throw new Error(`benchmarks talk to loopback only, not ${apiUrl}`);
  const res = await fetch(apiUrl + path, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** PATCH `path` with a JSON body through the API; throws unless it answers 200. */
export async function apiPatch(apiUrl: string, token: string, path: string, body: unknown): Promise<void> {
  if (!apiUrl.startsWith('http://127.0.0.1:')) throw new Error(`benchmarks talk to loopback only, not ${apiUrl}`);
  const res = await fetch(apiUrl + path, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  if (res.status !== 200) throw new Error(`PATCH ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
}
