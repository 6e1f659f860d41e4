// The PostgreSQL goals (issue 23) and their section of the results, shared by the whole
// run and `--only=postgres`.
import type { PostgresResult, StoreIngestRun } from './postgres.bench.ts';
import { cell, fmt, ms, timings, verdict } from './report-format.ts';

/** Ingest on PostgreSQL passes at this share of the embedded store's, measured in the same run. */
const INGEST_SHARE = 0.8;
const MEMORY_GOAL_MB = 200;

const worstFilter = (p: PostgresResult): number => Math.max(...Object.values(p.reads.listByFilter).map((t) => t.p95));
/** The fresh engine's on the seeded database: from its start through the queries. */
const peakMb = (p: PostgresResult): number =>
  Math.max(p.memory.started.peakRssMb, p.reads.memoryAtRest.peakRssMb, p.reads.memoryAtRest.rssMb);

export function postgresGoalRows(p: PostgresResult): string[] {
  const n = fmt(p.reads.storedBefore);
  const ratio = p.postgres.load.rps / p.embedded.load.rps;
  const r = p.reads;
  const lost = (run: StoreIngestRun): boolean => run.durable < run.acknowledged;
  return [
    `| Ingest on PostgreSQL (\`serve --database\`, fsync on) / embedded store, same run | ${ratio.toFixed(2)} (${fmt(p.postgres.load.rps)} / ${fmt(p.embedded.load.rps)} req/s) | >= ${INGEST_SHARE} | ${verdict(ratio >= INGEST_SHARE)} |`,
    `| Every acknowledged delivery stored on PostgreSQL (count after a SIGKILL) | ${fmt(p.postgres.durable)} stored, ${fmt(p.postgres.acknowledged)} acknowledged | all | ${verdict(!lost(p.postgres))} |`,
    `| PostgreSQL: list page (\`limit=50\`) p95 at ${n} logs | ${ms(r.list.p95)} | < 20 ms | ${verdict(r.list.p95 < 20)} |`,
    `| PostgreSQL: list with filters p95 at ${n} logs | ${ms(r.listFiltered.p95)} (worst filter ${ms(worstFilter(p))}) | < 20 ms | ${verdict(r.listFiltered.p95 < 20)} |`,
    `| PostgreSQL: text search p95 at ${n} logs | ${ms(r.search.p95)} | < 150 ms | ${verdict(r.search.p95 < 150)} |`,
    `| PostgreSQL: one log with body p95 at ${n} logs | ${ms(r.logWithBody.p95)} | < 5 ms | ${verdict(r.logWithBody.p95 < 5)} |`,
    `| PostgreSQL: an engine's resident memory at ${n} logs (a fresh process: start-up and the queries, peak) | ${fmt(peakMb(p))} MB (${fmt(r.memoryAtRest.rssMb)} MB after the queries; a fresh process on the empty database ${fmt(p.memory.empty.rssMb)} MB; the seeding engine's peak under load ${fmt(p.memory.seeding.peakRssMb)} MB) | < ${MEMORY_GOAL_MB} MB | ${verdict(peakMb(p) < MEMORY_GOAL_MB)} |`,
  ];
}

function ingestRow(name: string, r: StoreIngestRun, embeddedRps: number): string {
  const l = r.load;
  const listed = r.catchUpMs === null ? 'not all' : `${fmt(r.stored ?? 0)} after ${ms(r.catchUpMs)}`;
  return `| ${name} | ${fmt(l.rps)} | ${(l.rps / embeddedRps).toFixed(2)} | ${l.p50} ms | ${l.p99} ms | ${l.max} ms | ${fmt(l.ok)} | ${fmt(l.non2xx)} | ${fmt(l.errors + l.timeouts)} | ${fmt(r.cpu.serverUs, 1)} µs | ${r.postgresCpuUs === null ? '-' : `${fmt(r.postgresCpuUs, 1)} µs`} | ${fmt(r.acknowledged)} | ${listed} | ${fmt(r.durable)} |`;
}

export function renderPostgres(p: PostgresResult): string {
  const o = p.options;
  const r = p.reads;
  const n = fmt(r.storedBefore);
  const statuses = Object.entries(p.seed.statuses)
    .map(([code, count]) => `${code}: ${fmt(count)}`)
    .join(', ');
  return [
    `### PostgreSQL beside the engine (\`serve --database\`)`,
    '',
    `Server: ${p.server.version.split(',')[0]}, \`fsync\` ${p.server.fsync}, \`synchronous_commit\` ${p.server.synchronousCommit}, on loopback, on the same 2 cores as the engine and the load generator.`,
    '',
    `Ingest (${o.ingest.connections} connections, 1 KB bodies, ${o.ingest.seconds} s after a ${o.ingest.warmupSeconds} s warm-up, sync \`interval\`, a fresh engine each):`,
    '',
    '| Store | 2xx req/s | vs embedded | p50 | p99 | max | 2xx | non-2xx | errors | engine CPU per 2xx | PostgreSQL CPU per 2xx | acknowledged (warm-up + run) | listed after the load | stored after a kill |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
    ingestRow('embedded (sql.js, data directory)', p.embedded, p.embedded.load.rps),
    ingestRow('PostgreSQL', p.postgres, p.embedded.load.rps),
    '',
    `Engine CPU is the engine process's (all threads) over the measured run; PostgreSQL's is that of every process of the cluster \`pg_stat_activity\` lists (backends, WAL writer, checkpointer, autovacuum), from /proc, over warm-up and run. Both share the 2 cores with autocannon, so the engine on PostgreSQL cannot answer faster than 2,000,000 µs / (engine + PostgreSQL + load generator) per delivery.`,
    '',
    `At ${n} logs (seeded through the receiver over HTTP, ${o.seedConnections} connections, ${o.endpoints} GitHub endpoints, 1 in 7 with a wrong signature):`,
    '',
    '| Measure | Figure |',
    '| --- | --- |',
    `| Seeding ${fmt(o.logs)} deliveries (not a goal) | ${ms(p.seed.ms)} (${fmt(o.logs / (p.seed.ms / 1000))}/s); answers ${statuses}; errors ${fmt(p.seed.errors + p.seed.timeouts)}; then listed ${fmt(p.seed.stored)}, ${fmt(p.seed.failed)} failed verification |`,
    `| \`VACUUM (ANALYZE)\` after the seeding (what autovacuum does shortly after; then a fresh engine process for the reads) | ${ms(p.vacuumMs)} |`,
    `| List page \`limit=50\` | ${timings(r.list)} |`,
    ...Object.entries(r.listByFilter).map(([f, t]) => `| List \`limit=50&${cell(f)}\` | ${timings(t)} |`),
    `| Search, all terms | ${timings(r.search)} |`,
    ...Object.entries(r.searchByTerm).map(([term, t]) => `| Search \`${cell(term)}\` | ${timings(t)} |`),
    `| One log with body, \`GET /api/webhooks/logs/:id\` | ${timings(r.logWithBody)} |`,
    ...Object.entries(r.metricsApi).map(
      ([w, t]) => `| \`GET /api/observability/metrics?window=${w}\` | ${timings(t)} |`,
    ),
    `| Engine's resident memory: started on the empty database (peak) | ${fmt(p.memory.empty.rssMb)} MB (${fmt(p.memory.empty.peakRssMb)} MB) |`,
    `| Engine's resident memory: peak while seeding / after it | ${fmt(p.memory.seeding.peakRssMb)} MB / ${fmt(p.memory.seeding.rssMb)} MB |`,
    `| A fresh engine's resident memory on the ${n} logs: started (peak) | ${fmt(p.memory.started.rssMb)} MB (${fmt(p.memory.started.peakRssMb)} MB) |`,
    `| The fresh engine's resident memory after the queries (peak during them) | ${fmt(r.memoryAtRest.rssMb)} MB (${fmt(r.memoryAtRest.peakRssMb)} MB) |`,
    `| Database size (\`pg_database_size\`) | ${fmt(p.databaseMb)} MB |`,
    '',
  ].join('\n');
}
