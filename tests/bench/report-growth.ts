// The "How cost grows" table: one column per store size, the same measures in each.
import { cell, fmt, ms } from './report-format.ts';
import type { StoreCosts } from './store-costs.ts';
import type { Timings } from './timing.ts';

const p95 = (t: Timings | undefined): string => (t && t.n > 0 ? ms(t.p95) : 'n/a');

/** `lastIsLarge`: the last column is the 100,000-log part's own run (as in the full bench), not a store of its own. */
export function renderGrowth(points: StoreCosts[], lastIsLarge: boolean): string {
  const row = (name: string, value: (p: StoreCosts) => string): string =>
    `| ${name} | ${points.map(value).join(' | ')} |`;
  const first = points[0];
  const filters = first ? Object.keys(first.listByFilter) : [];
  const terms = first ? Object.keys(first.searchByTerm) : [];
  return [
    '### How cost grows',
    '',
    'Each column is a store seeded the same way (1 KB JSON bodies, 30 days, five endpoints, 1 in 7 failed) ' +
      'and measured the same way, in its own data directory and engine process' +
      (lastIsLarge ? '; the last column is the part above, not a second store of that size. ' : '. ') +
      'Latencies are p95 of sequential API calls; memory is the engine process after start-up and all these queries.',
    '',
    `| Measure | ${points.map((p) => `${fmt(p.storedBefore)} logs`).join(' | ')} |`,
    `| --- |${points.map(() => ' ---: |').join('')}`,
    row('Seeding (not a goal) / snapshot', (p) => `${ms(p.seedMs)} / ${fmt(p.snapshotMb)} MB`),
    row('`hookscope serve` start-up, median (slowest)', (p) => `${ms(p.cliStartupMs.p50)} (${ms(p.cliStartupMs.max)})`),
    row('List page `limit=50`', (p) => p95(p.list)),
    row('List with filters, all calls', (p) => p95(p.listFiltered)),
    ...filters.map((f) => row(`List \`${cell(f)}\``, (p) => p95(p.listByFilter[f]))),
    row('Search, all terms', (p) => p95(p.search)),
    ...terms.map((t) => row(`Search \`${cell(t)}\``, (p) => p95(p.searchByTerm[t]))),
    row('One log with body (`GET /api/webhooks/logs/:id`)', (p) => p95(p.logWithBody)),
    ...['24h', '30d'].map((w) => row(`Metrics \`window=${w}\``, (p) => p95(p.metricsApi[w]))),
    row(
      'Resident memory after start-up and queries (peak)',
      (p) => `${fmt(p.memoryAtRest.rssMb)} MB (${fmt(Math.max(p.memoryAtRest.rssMb, p.memoryAtRest.peakRssMb))} MB)`,
    ),
    '',
  ].join('\n');
}
