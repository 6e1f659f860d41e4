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
  const peak = (p: StoreCosts): number =>
    Math.max(p.memoryAtRest.rssMb, p.memoryAtRest.peakRssMb, p.memoryCheckpoint.peakRssMb, p.memoryCheckpoint.rssMb);
  return [
    '### How cost grows',
    '',
    'Each column is a store seeded the same way (through the receiver: unique JSON bodies of about 1 KB, ' +
      '1 in 100 of 64-256 KB, 30 days, five GitHub endpoints, 1 in 7 failed verification, none on the fifth) ' +
      'and measured the same way, in its own data directory and engine process' +
      (lastIsLarge ? '; the last column is the part above, not a second store of that size. ' : '. ') +
      'Latencies are p95 of sequential API calls; peak memory is the engine process from its start through ' +
      'all these queries and a checkpoint after them.',
    '',
    `| Measure | ${points.map((p) => `${fmt(p.storedBefore)} logs`).join(' | ')} |`,
    `| --- |${points.map(() => ' ---: |').join('')}`,
    row(
      'Seeding through the receiver (not a goal) / search index after it / snapshot',
      (p) => `${ms(p.seedMs)} / ${ms(p.indexMs)} / ${fmt(p.snapshotMb)} MB`,
    ),
    row('`hookscope serve` start-up, median (slowest)', (p) => `${ms(p.cliStartupMs.p50)} (${ms(p.cliStartupMs.max)})`),
    row('List page `limit=50`', (p) => p95(p.list)),
    row('List with filters, all calls', (p) => p95(p.listFiltered)),
    ...filters.map((f) => row(`List \`${cell(f)}\``, (p) => p95(p.listByFilter[f]))),
    row('Search, all terms', (p) => p95(p.search)),
    ...terms.map((t) => row(`Search \`${cell(t)}\``, (p) => p95(p.searchByTerm[t]))),
    row('One log with body (`GET /api/webhooks/logs/:id`)', (p) => p95(p.logWithBody)),
    ...['24h', '30d'].map((w) => row(`Metrics \`window=${w}\``, (p) => p95(p.metricsApi[w]))),
    row('Resident memory after start-up and queries', (p) => `${fmt(p.memoryAtRest.rssMb)} MB`),
    row(
      'Checkpoint after the queries / resident memory after it',
      (p) => `${ms(p.checkpointIdle.checkpointMs)} / ${fmt(p.memoryCheckpoint.rssMb)} MB`,
    ),
    row('Peak resident memory (start-up, queries, checkpoint)', (p) => `${fmt(peak(p))} MB`),
    '',
    renderBytes(points),
  ].join('\n');
}

/** Bytes per delivery of each logs table and index, one column per store (their snapshots, taken apart). */
export function renderBytes(points: StoreCosts[]): string {
  const first = points[0];
  if (!first) return '';
  const per = (p: StoreCosts, bytes: number): string => fmt(bytes / Math.max(1, p.bytes.logs));
  const objects = first.bytes.objects.map((o) => o.name);
  const columns = first.bytes.columns.map((c) => c.name);
  const row = (name: string, value: (p: StoreCosts) => string): string =>
    `| ${name} | ${points.map(value).join(' | ')} |`;
  return [
    'Bytes per delivery in the snapshot (sql.js holds all of it in memory), each object weighed by dropping it from a copy:',
    '',
    `| Object | ${points.map((p) => `${fmt(p.bytes.logs)} logs`).join(' | ')} |`,
    `| --- |${points.map(() => ' ---: |').join('')}`,
    ...objects.map((name) =>
      row(cell(name), (p) => per(p, p.bytes.objects.find((o) => o.name === name)?.bytes ?? NaN)),
    ),
    row('the whole snapshot', (p) => per(p, p.bytes.fileBytes)),
    row('its main database / its aux database (a checkpoint copies one at a time)', (p) =>
      [p.bytes.databases.main, p.bytes.databases.aux].map((b) => per(p, b)).join(' / '),
    ),
    row('log_search rows per log', (p) => fmt(p.bytes.searchRowsPerLog, 2)),
    ...columns.map((name) =>
      row(`logs.${name}, average bytes`, (p) => fmt(p.bytes.columns.find((c) => c.name === name)?.bytes ?? NaN)),
    ),
    '',
  ].join('\n');
}
