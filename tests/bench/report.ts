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

const INTRO = `# Performance

The goals come from DESIGN.md ("Performance goals") and are checked by a benchmark,
never by timing assertions in tests: \`npm run bench\` (tests/bench/run.ts) measures
them all in one run, on the machine it runs on, and rewrites the results section
below (\`npm run bench -- --quick\` is a short smoke run that only prints;
\`--only=ingest|growth|large|flood|postgres|ui|cli\` runs one part and prints it). What it does:

- **Ingest**: autocannon (programmatic, 32 connections, 1 KB JSON bodies) against a
  bare \`node:http\` server that reads the body and answers 200, then against the real
  engine's receiver (temp data directory, rate limiter off) in four runs, each with a
  fresh engine: a \`none\` endpoint with the default sync policy \`interval\`; a
  \`stripe\` endpoint, every delivery signed with the \`stripe\` package's
  \`webhooks.generateTestHeaderString\` (one header per autocannon run, signed as it
  starts: the engine accepts a timestamp up to 300 s old); \`strict\` sync; and
  \`interval\` again with readers. Each server runs in its own child process, from
  the compiled build (\`npm run build:server\`; the children themselves through
  tsconfig.bench.json), as users run it, autocannon in the parent. Each run also
  reports the CPU time per 2xx answer of the server's process (all its threads) and of
  autocannon's, and the rate the 2 cores allow at that cost. A warm-up run comes first and is not counted. Afterwards the
  API's list total is asked for until it reaches the acknowledged count (bounded wait;
  retention is raised so nothing is evicted): the time from the load's end is how far
  the database fell behind, and the total over the time from the warm-up's start until
  then (less the same list call's round trip once caught up, median of 5) is the apply
  rate, set against the acknowledgements over the time until the load's end (it passes
  within 1%: the worker applies records in groups, so the last group always lands a few
  milliseconds after the last answer). The
  Stripe run then checks that no delivery was refused or listed as failed and reads the
  newest log's verification. Then the engine is killed and the deliveries its data
  directory holds are counted (snapshot plus journal: what a restart recovers) and
  compared with the 2xx answers. Latencies are autocannon's (whole milliseconds, 2xx
  answers).
- **Reads under load**: a separate run right after the others (a fresh engine, same
  warm-up and load as the \`interval\` run), so the readers' own cost stays out of the
  throughput ratios; its throughput is listed next to theirs. During its measured run a
  process of its own (not autocannon's, whose busy event loop would add its queueing)
  calls \`GET /api/webhooks/logs?limit=50\` one call at a time, keeps a \`GET
  /api/events\` subscriber open, and sends a marked delivery to the same endpoint every
  50 ms on its own connection; for each, the time from its 2xx to the moment its
  \`log.created\` event reaches the subscriber (same clock; an event that comes first
  counts as 0). Marked deliveries whose event has not come 3 s after the load are counted
  as never come; a stream the engine drops (a client 1 MB behind) is resumed with
  \`Last-Event-ID\` and counted.
- **At 100,000 logs**: a real engine creates a data directory (account, key, five
  endpoints), then the logs go into its store through the logs repository's own insert,
  2,000 at a time (1 KB JSON bodies, spread over 30 days, 1 in 7 failed verification), so
  the store holds what deliveries write: bodies in the blob files, every index and trigger. Then: start-up of \`hookscope serve\` on it (spawn
  to \`runtime.json\`); sequential \`GET /api/webhooks/logs?limit=50\` calls, then with
  \`status=failed\`, \`endpointId=\` and both (in turn), then with \`search=\` (terms matching
  20 logs, 12,500 logs and none, in turn); \`GET /api/webhooks/logs/:id\` for 1,000 logs
  taken from five places through the store (one log with its body); the engine process's
  resident memory (sampled every 100 ms, so peaks include checkpoints; the store's worker
  thread is in the same process); checkpoints with deliveries coming in, with
  \`perf_hooks.monitorEventLoopDelay\` (1 ms resolution) on in the engine process for
  exactly the checkpoint's duration: once at a steady rate the store keeps up with at this
  size, then twice in a short full-speed burst (there the checkpoint first waits for the
  records the store's worker has not applied yet, so it is watched for a bounded time).
  The first burst is the goal's: retention is set to 100,000 logs through
  \`PATCH /api/settings\`, so the store stays at that size, its oldest logs evicted as
  new ones come. The second has no retention cap, so the store grows (to about 140,000
  logs); it is reported next to the first. Each burst starts right after a checkpoint,
  so the one asked for during it is not one the journal's size started.
- **How cost grows**: the same seeding and the same measures (start-up, list, filters,
  search, one log, metrics, memory) on stores of 10,000 and 30,000 logs, each in its own
  data directory and engine process, next to the 100,000-log figures in one table
  (\`npm run bench -- --only=growth\` measures all three sizes alone).
- **Flood**: a real engine with the default retention (10,000 logs per account) gets
  1,000,000 deliveries (1 KB) at one endpoint from autocannon at full speed (32
  connections; the rate limiter off). Its resident memory is read from \`/proc\` every
  200 ms and its data directory's total size every second; then the list total is asked
  for (bounded wait) and the engine stopped cleanly. Sending stops after 240 s, or if the
  engine passes 2 GB resident (a shared machine), and the report says which happened
  (\`--only=flood\` runs it alone).
- **PostgreSQL** (\`serve --database\`, issue 23; \`--only=postgres\`): a PostgreSQL cluster
  of the benchmark's own beside the engine, started as tests/helpers/postgres.ts starts
  the tests' (initdb in a temp dir, loopback only) but with production durability
  (\`fsync\` and \`synchronous_commit\` on). In the same run, the \`interval\` ingest load
  above (autocannon, 32 connections, 1 KB JSON, warm-up then measured run) against a
  fresh embedded engine and then a fresh engine on a new database of that cluster
  (both the compiled engine in a child process), and their ratio; after each, the list
  total (bounded wait), a SIGKILL, and the logs the store holds then (the data
  directory's, or \`count(*)\` in PostgreSQL) against the 2xx answers. Then 100,000
  deliveries through the receiver over HTTP (autocannon, 32 connections, five GitHub
  endpoints, 1 KB JSON bodies shaped as the seeded stores' so the same search terms
  match 20, 12,500 and no logs, every 7th with a wrong signature so it is stored as
  failed verification, retention raised), and at that size the same reads as the
  100,000-log part (list, filters, search, one log, metrics) and the engine process's
  resident memory: on the empty database, peak while seeding, after the queries.
- **The UI**: \`hookscope serve\` with the built renderer, driven by Debian's Chromium
  (tests/bench/ui.bench.ts). 10,000 deliveries go in through the receiver first; then
  the page is loaded (once with an empty cache, then again with the hashed assets cached,
  as on every later launch) and timed from navigation to the first delivery row. Then,
  with the page open and live, marked deliveries go in one every 100 ms while 100 others
  a second go to the same endpoint, one every 10 ms; a MutationObserver in the page notes when each marked row
  appears, and that is compared with the moment its 2xx reached the sender.
- **Metrics**: the 24h and 30d metrics at those 100,000 logs, through the API and as the
  repository's stats query alone (tests/bench/metrics-stats.bench.ts).

Set \`BENCH_CPU_PROF=<dir>\` to have the server processes write V8 CPU profiles (main
thread and the store's worker) for a look at where the time goes.

The machine is shared and small, so figures move by some percent between runs; a
result near its goal deserves a second run before anyone acts on it.
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
    `| UI delivery to row p95, under ${fmt(run.ui.options.backgroundRate)} other deliveries/s | ${ms(run.ui.rowLatency.p95)}${run.ui.missed.length > 0 ? `, ${run.ui.missed.length} rows never shown` : ''} | < 250 ms | ${verdict(run.ui.rowLatency.p95 < 250 && run.ui.missed.length === 0)} |`,
    `| Longest event-loop stall during a checkpoint under load (worst of steady and bursts) | ${ms(stall)} (steady ${ms(s.steady.checkpoint.maxMs)}, bursts ${ms(s.burst.checkpoint.maxMs)} and ${ms(s.growingBurst.checkpoint.maxMs)}) | < 50 ms | ${verdict(stall < 50)} |`,
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
