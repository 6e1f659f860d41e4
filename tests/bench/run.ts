// `npm run bench`: every performance goal of DESIGN.md in one run, results into
// docs/PERFORMANCE.md. `--quick` is a short smoke run (smaller store, shorter loads)
// that prints the results instead of writing them; `--only=ingest`, `--only=ui`, `--only=cli`,
// `--only=growth` (all three store sizes), `--only=large` (the 100,000-log store: queries,
// checkpoints, memory), `--only=flood` or `--only=postgres` (`serve --database` on a PostgreSQL
// cluster of its own) runs that part alone and prints it.
// Loopback only; every loop is bounded in count and time, and a watchdog ends the run.
import { fileURLToPath } from 'node:url';
import { buildBenchChildren } from './bench-child.ts';
import { benchCliStart } from './cli-start.bench.ts';
import { benchFlood, type FloodOptions } from './flood.bench.ts';
import { benchGrowth } from './growth.bench.ts';
import { benchIngest, type IngestOptions } from './ingest.bench.ts';
import { benchLargeStore, type LargeStoreOptions } from './large-store.bench.ts';
import { machineInfo } from './machine.ts';
import { benchPostgres, type PostgresOptions } from './postgres.bench.ts';
import { floodGoalRows, renderFlood } from './report-flood.ts';
import { renderGrowth } from './report-growth.ts';
import { postgresGoalRows, renderPostgres } from './report-postgres.ts';
import { ingestGoalRows, renderIngest } from './report-ingest.ts';
import { renderLarge, renderResults, renderUi, writeResults } from './report.ts';
import type { StoreCostOptions } from './store-costs.ts';
import { benchUi, type UiOptions } from './ui.bench.ts';

const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const WATCHDOG_MS = 15 * 60_000;

const ingestOptions: IngestOptions = quick
  ? {
      rounds: 1,
      connections: 32,
      seconds: 3,
      warmupSeconds: 1,
      catchUpLimitMs: { interval: 20_000, strict: 10_000 },
      markEveryMs: 50,
      eventGraceMs: 3_000,
    }
  : {
      rounds: 3,
      connections: 32,
      seconds: 10,
      warmupSeconds: 2,
      catchUpLimitMs: { interval: 30_000, strict: 10_000 },
      markEveryMs: 50,
      eventGraceMs: 3_000,
    };
// The same measures at every store size (the growth table and the 100,000-log part).
const costOptions: StoreCostOptions = quick
  ? { cliStarts: 1, listCalls: 20, filterCalls: 15, searchCalls: 9, detailCalls: 30, seriesBudgetMs: 5_000 }
  : // 40 calls of each of the 10 filters: with 15, a filter's p95 was its slowest call, so one pause anywhere
    // on the machine decided the goal (24.8 ms in one run, that filter's median 2.9 ms).
    { cliStarts: 3, listCalls: 200, filterCalls: 400, searchCalls: 45, detailCalls: 200, seriesBudgetMs: 30_000 };
/** The growth table's smaller stores; the large store is its last column. */
const growthSizes = quick ? [2_000, 5_000] : [10_000, 30_000];
const largeOptions: LargeStoreOptions = quick
  ? {
      ...costOptions,
      logs: 10_000,
      connections: 32,
      steadyRate: 100,
      burstSeconds: 8,
      burstWatchMs: 10_000,
    }
  : {
      ...costOptions,
      logs: 100_000,
      connections: 32,
      steadyRate: 100,
      burstSeconds: 8,
      burstWatchMs: 10_000,
    };

const floodOptions: FloodOptions = {
  deliveries: quick ? 50_000 : 1_000_000,
  connections: 32,
  maxSendSeconds: quick ? 60 : 240,
  catchUpLimitMs: quick ? 30_000 : 90_000,
  rssGuardMb: 2_048,
  rssEveryMs: 200,
  sizeEveryMs: 1_000,
};

const postgresOptions: PostgresOptions = {
  ...costOptions,
  ingest: ingestOptions,
  logs: quick ? 10_000 : 100_000,
  endpoints: 5,
  seedConnections: 32,
  seedMaxSeconds: quick ? 120 : 600,
};

const uiOptions: UiOptions = quick
  ? { deliveries: 2_000, renders: 3, samples: 40, sampleEveryMs: 100, backgroundRate: 100 }
  : { deliveries: 10_000, renders: 10, samples: 200, sampleEveryMs: 100, backgroundRate: 100 };

const watchdog = setTimeout(() => {
  console.error(
    `bench: still running after ${WATCHDOG_MS / 60_000} minutes; giving up (children exit when this process does)`,
  );
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

const startedAt = new Date();
const t0 = performance.now();
const log = (line: string): void =>
  console.log(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${line}`);
/** `--only=<part>`: that part alone, printed instead of written. */
const PARTS: Record<string, () => Promise<string>> = {
  ingest: async () => {
    const ingest = await benchIngest(ingestOptions, log);
    return `${ingestGoalRows(ingest).join('\n')}\n\n${renderIngest(ingest)}`;
  },
  ui: async () => renderUi(await benchUi(uiOptions, log)),
  cli: async () => JSON.stringify(await benchCliStart({ runs: 5 }, log), null, 2),
  growth: async () => renderGrowth(await benchGrowth([...growthSizes, largeOptions.logs], costOptions, log), false),
  large: async () => renderLarge(await benchLargeStore(largeOptions, log)),
  flood: async () => {
    const flood = await benchFlood(floodOptions, log);
    return `${floodGoalRows(flood).join('\n')}\n\n${renderFlood(flood)}`;
  },
  postgres: async () => {
    const postgres = await benchPostgres(postgresOptions, log);
    const m = machine;
    // The machine beside the figures: this part's results are pasted into PERFORMANCE.md between full runs.
    const header = `Run on ${startedAt.toISOString()} (\`npm run bench -- --only=postgres${quick ? ' --quick' : ''}\`). Machine: \`nproc\` = ${m.nproc} (${m.cpu}), Node ${m.node}, ${m.kernel}, load average at start ${m.loadAverage}.`;
    return `${header}\n\n${postgresGoalRows(postgres).join('\n')}\n\n${renderPostgres(postgres)}`;
  },
};
const part = only !== undefined && Object.hasOwn(PARTS, only) ? PARTS[only] : undefined;
// Before the build, so a misspelt part fails at once.
if (only !== undefined && !part) throw new Error(`--only=${only}: not a part (${Object.keys(PARTS).join(', ')})`);
const machine = machineInfo();
log('building the engine and the benchmark children (npm run build:server, tsconfig.bench.json)');
buildBenchChildren();
if (part) {
  console.log(`\n${await part()}`);
  process.exit(0);
}
const cliStart = await benchCliStart({ runs: quick ? 3 : 5 }, log);
const ingest = await benchIngest(ingestOptions, log);
const growth = await benchGrowth(growthSizes, costOptions, log);
const large = await benchLargeStore(largeOptions, log);
const ui = await benchUi(uiOptions, log);
const flood = await benchFlood(floodOptions, log);
const postgres = await benchPostgres(postgresOptions, log);
const results = renderResults({
  startedAt,
  totalSeconds: (performance.now() - t0) / 1000,
  command: quick ? 'npm run bench -- --quick' : 'npm run bench',
  machine,
  ingest,
  large,
  growth,
  flood,
  postgres,
  ui,
  cliStart,
});

if (quick) {
  console.log(`\n${results}`);
} else {
  const path = fileURLToPath(new URL('../../docs/PERFORMANCE.md', import.meta.url));
  await writeResults(path, results);
  log(`results written to ${path}`);
}
clearTimeout(watchdog);
