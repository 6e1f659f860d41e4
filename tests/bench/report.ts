// Renders one run's figures as Markdown and puts them into docs/PERFORMANCE.md
// between the results markers, leaving the hand-written text around them alone.
import { readFile, writeFile } from 'node:fs/promises';
import type { CliStartResult } from './cli-start.bench.ts';
import type { FloodResult } from './flood.bench.ts';
import type { IngestResult } from './ingest.bench.ts';
import type { CheckpointUnderLoad, LargeStoreResult } from './large-store.bench.ts';
import type { MachineInfo } from './machine.ts';
import { floodGoalRows, renderFlood } from './report-flood.ts';
import { cell, fmt, ms, timings, verdict } from './report-format.ts';
import { renderBytes, renderGrowth } from './report-growth.ts';
import { postgresGoalRows, renderPostgres } from './report-postgres.ts';
import type { PostgresResult } from './postgres.bench.ts';
import { ingestGoalRows, renderIngest } from './report-ingest.ts';
import type { StoreCosts } from './store-costs.ts';
import type { UiResult } from './ui.bench.ts';

export interface BenchRun {
  startedAt: Date;
  totalSeconds: number;
  command: string;
  machine: MachineInfo;
  ingest: IngestResult;
  large: LargeStoreResult;
  /** The smaller stores of the growth table; the large store is its last column. */
  growth: StoreCosts[];
  flood: FloodResult;
  postgres: PostgresResult;
  ui: UiResult;
  cliStart: CliStartResult;
}

const START = '<!-- bench:results:start (written by npm run bench; edits here are overwritten) -->';
const END = '<!-- bench:results:end -->';

/**
 * The start of a PERFORMANCE.md made from nothing. The file in the repository holds the
 * method, written by hand above the results section (and the notes below it): only the
 * section between the markers is the benchmark's, so the method is not kept twice.
 */
const INTRO = `# Performance

Written by \`npm run bench\` (tests/bench/run.ts); the method is in docs/PERFORMANCE.md of the repository.
`;

function checkpointRows(name: string, c: CheckpointUnderLoad): string[] {
  const l = c.load;
  return [
    `| ${name}: event-loop delay before the checkpoint (1.5 s) | max ${ms(c.loopBefore.maxMs)}, p99 ${ms(c.loopBefore.p99Ms)} |`,
    `| ${name}: the checkpoint | ${c.checkpoint.completed ? 'took' : '**not done** after'} ${ms(c.checkpoint.checkpointMs)}; longest event-loop stall meanwhile ${ms(c.checkpoint.maxMs)}, p99 delay ${ms(c.checkpoint.p99Ms)} |`,
    `| ${name}: deliveries around it | ${fmt(l.ok)} in ${fmt(l.seconds, 1)} s (${fmt(l.rps)}/s), p50 ${l.p50} ms, p99 ${l.p99} ms, max ${l.max} ms, non-2xx ${l.non2xx}, errors ${l.errors + l.timeouts} |`,
    `| ${name}: resident memory, peak during this phase / after | ${fmt(c.memory.peakRssMb)} MB / ${fmt(c.memory.rssMb)} MB |`,
  ];
}

/** The 100,000-log part's detail table. */
export function renderLarge(s: LargeStoreResult): string {
  const n = fmt(s.storedBefore);
  const repo = (w: string) => s.metricsRepo.find((x) => x.window === w);
  return [
    `### At ${n} logs`,
    '',
    '| Measure | Figure |',
    '| --- | --- |',
    `| Seeding through the receiver (autocannon, 32 connections; not a goal) | ${ms(s.seedMs)} (answers ${Object.entries(
      s.seed.statuses,
    )
      .map(([code, n]) => `${code}: ${fmt(n)}`)
      .join(', ')}); the search index after it ${ms(s.indexMs)}; snapshot ${fmt(s.snapshotMb)} MB |`,
    `| \`hookscope serve\` start-up (spawn to runtime.json) | ${timings(s.cliStartupMs)} |`,
    `| \`startEngine\` alone, in the benchmark's engine process | ${ms(s.startEngineMs)} |`,
    `| List page \`limit=50\` | ${timings(s.list)} |`,
    ...Object.entries(s.listByFilter).map(([f, t]) => `| List \`limit=50&${cell(f)}\` | ${timings(t)} |`),
    `| Search, all terms | ${timings(s.search)} |`,
    ...Object.entries(s.searchByTerm).map(([term, t]) => `| Search \`${cell(term)}\` | ${timings(t)} |`),
    `| One log with body, \`GET /api/webhooks/logs/:id\` (1,000 logs from all through the store, in turn) | ${timings(s.logWithBody)} |`,
    ...Object.entries(s.metricsApi).map(
      ([w, t]) => `| \`GET /api/observability/metrics?window=${w}\` | ${timings(t)} |`,
    ),
    ...['24h', '30d'].map((w) => {
      const r = repo(w);
      return r
        ? `| Metrics stats query ${w} (repository alone, ${fmt(r.logsInWindow)} logs in window) | wall median ${ms(r.wallMedianMs)}, CPU median ${ms(r.cpuMedianMs)} |`
        : `| Metrics stats query ${w} | not measured |`;
    }),
    `| Resident memory after start-up and the queries / peak so far | ${fmt(s.memoryAtRest.rssMb)} MB / ${fmt(s.memoryAtRest.peakRssMb)} MB |`,
    `| Checkpoint while idle, after the queries | ${ms(s.checkpointIdle.checkpointMs)}, longest event-loop stall ${ms(s.checkpointIdle.maxMs)}; resident memory after it ${fmt(s.memoryCheckpoint.rssMb)} MB, peak during it ${fmt(s.memoryCheckpoint.peakRssMb)} MB |`,
    ...checkpointRows(`Steady ${s.options.steadyRate}/s`, s.steady),
    ...checkpointRows(`Full-speed burst (${s.options.burstSeconds} s cap), retention holding ${n} logs`, s.burst),
    ...checkpointRows(
      `Full-speed burst (${s.options.burstSeconds} s cap), no retention cap (${fmt(s.storedAfterGrowing)} logs after it)`,
      s.growingBurst,
    ),
    '',
    renderBytes([s]),
  ].join('\n');
}

export function renderResults(run: BenchRun): string {
  const { ingest: g, large: s, machine: m } = run;
  const restMb = Math.max(s.memoryAtRest.rssMb, s.memoryAtRest.peakRssMb, s.memoryCheckpoint.peakRssMb);
  const stall = Math.max(s.steady.checkpoint.maxMs, s.burst.checkpoint.maxMs, s.growingBurst.checkpoint.maxMs);
  const n = fmt(s.storedBefore);
  const worstFilter = Math.max(...Object.values(s.listByFilter).map((t) => t.p95));
  const lines = [
    '## Results',
    '',
    `Run on ${run.startedAt.toISOString()}, ${fmt(run.totalSeconds)} s in all. Command: \`${run.command}\``,
    '',
    `Machine: \`nproc\` = ${m.nproc} (${m.cpu}), Node ${m.node}, ${m.kernel}, load average at start ${m.loadAverage}.`,
    '',
    '```',
    '$ free -h',
    m.free,
    '```',
    '',
    '### Goals',
    '',
    '| Goal | Measured | Target | Result |',
    '| --- | --- | --- | --- |',
    ...ingestGoalRows(g),
    `| List page (\`limit=50\`) p95 at ${n} logs | ${ms(s.list.p95)} | < 20 ms | ${verdict(s.list.p95 < 20)} |`,
    `| Every list filter p95 at ${n} logs (status, endpoint, event type, pinned, combinations, filters matching nothing; the worst filter's p95) | ${ms(worstFilter)} (all filtered calls ${ms(s.listFiltered.p95)}) | < 20 ms | ${verdict(worstFilter < 20)} |`,
    `| One log with body (\`GET /api/webhooks/logs/:id\`) p95 at ${n} logs | ${ms(s.logWithBody.p95)} | < 5 ms | ${verdict(s.logWithBody.p95 < 5)} |`,
    `| Text search (\`search=\`) p95 at ${n} logs | ${ms(s.search.p95)} | < 150 ms | ${verdict(s.search.p95 < 150)} |`,
    `| Resident memory at ${n} logs: start-up, queries and an idle checkpoint (peak) | ${fmt(restMb)} MB (${fmt(s.memoryAtRest.rssMb)} MB after the queries) | < 400 MB | ${verdict(restMb < 400)} |`,
    `| Resident memory at ${n} logs: peak during a checkpoint at ${s.options.steadyRate} deliveries/s | ${fmt(s.steady.memory.peakRssMb)} MB | < 400 MB | ${verdict(s.steady.memory.peakRssMb < 400)} |`,
    `| Resident memory at ${n} logs: peak during a checkpoint in a full-speed burst (retention holds the store at ${n}) | ${fmt(s.burst.memory.peakRssMb)} MB (${fmt(s.growingBurst.memory.peakRssMb)} MB in the same burst with no retention cap, the store growing to ${fmt(s.storedAfterGrowing)} logs) | < 400 MB | ${verdict(s.burst.memory.peakRssMb < 400)} |`,
    `| \`hookscope --help\` (compiled build), slowest of ${run.cliStart.help.n} | ${ms(run.cliStart.help.max)} (median ${ms(run.cliStart.help.p50)}) | < 0.5 s | ${verdict(run.cliStart.help.max < 500)} |`,
    `| Start-up on an empty data directory, \`hookscope serve\` spawn to runtime.json, slowest of ${run.cliStart.serveEmpty.n} | ${ms(run.cliStart.serveEmpty.max)} (median ${ms(run.cliStart.serveEmpty.p50)}) | < 1 s | ${verdict(run.cliStart.serveEmpty.max < 1000)} |`,
    `| Start-up at ${n} logs, \`hookscope serve\` spawn to runtime.json, slowest of ${s.cliStartupMs.n} | ${ms(s.cliStartupMs.max)} (median ${ms(s.cliStartupMs.p50)}) | < 1 s | ${verdict(s.cliStartupMs.max < 1000)} |`,
    `| UI first render with ${fmt(run.ui.listed)} deliveries (navigation to the first row), slowest of ${run.ui.render.n} warm loads | ${ms(run.ui.render.max)} (cold ${ms(run.ui.coldRenderMs)}) | < 1 s | ${verdict(Math.max(run.ui.render.max, run.ui.coldRenderMs) < 1000)} |`,
    `| UI delivery to row p95, under ${fmt(run.ui.options.backgroundRate)} other deliveries/s | ${ms(run.ui.rowLatency.p95)}${run.ui.missed.length > 0 ? `, ${run.ui.missed.length} rows never shown` : ''} | < 100 ms | ${verdict(run.ui.rowLatency.p95 < 100 && run.ui.missed.length === 0)} |`,
    `| Longest event-loop stall during a checkpoint under load (worst of steady and bursts) | ${ms(stall)} (steady ${ms(s.steady.checkpoint.maxMs)}, bursts ${ms(s.burst.checkpoint.maxMs)} and ${ms(s.growingBurst.checkpoint.maxMs)}) | < 20 ms | ${verdict(stall < 20)} |`,
    ...floodGoalRows(run.flood),
    ...postgresGoalRows(run.postgres),
    '',
    renderIngest(g),
    renderLarge(s),
    renderGrowth([...run.growth, s], true),
    renderFlood(run.flood),
    renderPostgres(run.postgres),
    renderUi(run.ui),
  ];
  return lines.join('\n');
}

/** The UI figures as a Markdown section of their own. */
export function renderUi(u: UiResult): string {
  return [
    '### The UI in Chromium',
    '',
    '| Measure | Figure |',
    '| --- | --- |',
    `| Seeding ${fmt(u.options.deliveries)} deliveries through the receiver (not a goal) | ${ms(u.seedMs)}; the list API then reported ${fmt(u.listed)} |`,
    `| First render, empty cache (navigation to the first row) | ${ms(u.coldRenderMs)} |`,
    `| First render, assets cached | ${timings(u.render)} |`,
    `| Delivery 2xx to its row in the DOM, ${fmt(u.options.samples)} marked deliveries every ${fmt(u.options.sampleEveryMs)} ms, ${fmt(u.options.backgroundRate)} others/s | ${timings(u.rowLatency)}; never shown: ${u.missed.length === 0 ? 'none' : `${u.missed.length} (numbers ${u.missed.join(', ')})`} |`,
    `| Other deliveries answered 2xx meanwhile | ${fmt(u.backgroundOk)} |`,
    '',
  ].join('\n');
}

/** Replaces the results section of `path` (creating the file with its introduction if needed). */
export async function writeResults(path: string, results: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    text = `${INTRO}\n${START}\n${END}\n`;
  }
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  const section = `${START}\n${results}\n${END}`;
  text =
    a === -1 || b < a ? `${text.trimEnd()}\n\n${section}\n` : text.slice(0, a) + section + text.slice(b + END.length);
  await writeFile(path, text);
}
