import type { LogSummary } from '../api/client.ts';

/**
 * The list holds at most this many rows. Retention keeps 10,000 logs per account by
 * default, so every delivery fits; a flood beyond it drops the oldest loaded rows
 * (scrolling down loads them again) rather than growing without bound.
 */
export const MAX_ROWS = 20_000;

/**
 * A next page added below the rows already loaded. Pages are asked by offset
 * (the number of rows loaded), and deliveries arriving meanwhile shift the engine's
 * offsets down, so the page may repeat rows the list holds: each id is kept once.
 */
export function appendPage(current: readonly LogSummary[], page: readonly LogSummary[]): LogSummary[] {
  const known = new Set(current.map((l) => l.id));
  const fresh = page.filter((l) => !known.has(l.id));
  return fresh.length === 0 ? [...current] : [...current, ...fresh];
}

/**
 * How many rows at the top of `next` are new since `prev` (deliveries that arrived
 * while the list was asked again): those before the first row `prev` already held.
 * An empty `prev` (a first load) has none: nothing arrived, the list was just read.
 */
export function newAtTop(prev: readonly LogSummary[], next: readonly LogSummary[]): number {
  if (prev.length === 0) return 0;
  const known = new Set(prev.map((l) => l.id));
  const i = next.findIndex((l) => known.has(l.id));
  return i === -1 ? next.length : i;
}

/** The engine's first page merged into the rows loaded: new rows go on top, the rows below stay. */
export function prependHead(
  current: readonly LogSummary[],
  head: readonly LogSummary[],
): { logs: LogSummary[]; added: number } {
  const known = new Set(current.map((l) => l.id));
  const fresh = head.filter((l) => !known.has(l.id));
  return { logs: fresh.length === 0 ? [...current] : [...fresh, ...current], added: fresh.length };
}
