// The ingest goals and the ingest section of the results, shared by the whole run
// and `--only=ingest`.
import type { IngestResult, IngestRound, IngestRun, StripeRun } from './ingest.bench.ts';
import { fmt, ms, timings, verdict } from './report-format.ts';
import type { Timings } from './timing.ts';

/** The list total must reach the acknowledged count this soon after the load stops. */
const CATCH_UP_GOAL_MS = 1_000;
/**
 * The apply rate passes at this share of the acknowledgement rate. The worker applies records
 * in groups after they are acknowledged, so the last group always lands some milliseconds after
 * the last answer: an exact comparison would fail on that alone (measured: 17-50 ms, 0.05-0.4%
 * of a 4.5 s quick run). 1% of a 12.5 s run is 125 ms of backlog.
 */
const APPLY_RATE_SHARE = 0.99;

/**
 * Timings that came over IPC: with no sample their NaNs arrive as null (JSON), and
 * `null < 50` is true, so an empty measure must never reach a comparison.
 */
const measured = (t: Timings): boolean => t.n > 0 && Number.isFinite(t.p95);
const timingsText = (t: Timings): string => (measured(t) ? timings(t) : 'none measured (n=0)');

const perSecond = (count: number, elapsedMs: number): number => count / (elapsedMs / 1000);

/**
 * Acknowledgements and applied logs per second, both counted from the start of the warm-up:
 * the first until the load's end, the second until the list total reached the acknowledged
 * count, less the list call's own round trip (timed once caught up), which is no backlog.
 */
export function ingestRates(r: IngestRun): { acknowledged: number; applied: number | null; drainMs: number | null } {
  const drainMs = r.catchUpMs === null ? null : Math.max(0, r.catchUpMs - (r.listIdleMs ?? 0));
  return {
    acknowledged: perSecond(r.acknowledged, r.sendMs),
    applied: r.stored === null || drainMs === null ? null : perSecond(r.stored, r.sendMs + drainMs),
    drainMs,
  };
}

function caughtUpText(r: IngestRun): string {
  return r.catchUpMs === null
    ? `not all listed within ${fmt((r.catchUpLimitMs ?? 0) / 1000)} s (${r.stored === null ? 'no answer' : `${fmt(r.stored)} listed`})`
    : `${fmt(r.stored ?? 0)} listed ${ms(r.catchUpMs)} after the load stopped (an idle list call: ${ms(r.listIdleMs ?? 0)})`;
}

function stripeVerified(r: StripeRun): boolean {
  return r.load.non2xx === 0 && r.failed === 0 && r.newest?.result === 'valid' && r.newest.scheme === 'stripe';
}

function stripeCheckText(r: StripeRun): string {
  const newest = r.newest === null ? 'not read' : `${r.newest.scheme} ${r.newest.result}`;
  return `non-2xx ${fmt(r.load.non2xx)}, listed as failed ${r.failed === null ? 'not read' : fmt(r.failed)}, newest log's verification ${newest}`;
}

/** The engine's rate over mockttp's in one round (they ran one after the other). */
const vsMockttp = (r: IngestRound): number => r.interval.load.rps / r.mockttp.load.rps;
/** The same with every signature verified: the Stripe run over mockttp's of its round. */
const stripeVsMockttp = (r: IngestRound): number => r.stripe.load.rps / r.mockttp.load.rps;

/** The round whose `ratio` is the median (the lower middle one of an even count). */
function medianBy(g: IngestResult, ratio: (r: IngestRound) => number): IngestRound {
  const sorted = [...g.rounds].sort((a, b) => ratio(a) - ratio(b));
  const round = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!round) throw new Error('the ingest benchmark ran no round');
  return round;
}

/** The round whose engine/mockttp ratio is the median: its runs are the ones the tables below show in full. */
export const medianRound = (g: IngestResult): IngestRound => medianBy(g, vsMockttp);

const roundRatios = (g: IngestResult, ratio: (r: IngestRound) => number): string =>
  g.rounds.map((r) => ratio(r).toFixed(2)).join(', ');

/** The Stripe runs' checks, the same in every round (else each round's). */
function stripeChecksText(g: IngestResult): string {
  const texts = [...new Set(g.rounds.map((r) => stripeCheckText(r.stripe)))];
  return texts.length === 1
    ? `every round: ${texts[0]!}`
    : g.rounds.map((r, n) => `round ${n + 1}: ${stripeCheckText(r.stripe)}`).join('; ');
}

export function ingestGoalRows(g: IngestResult): string[] {
  const median = medianRound(g);
  const mockttpRps = median.mockttp.load.rps;
  const bareRps = median.bare.load.rps;
  const stripeMedian = medianBy(g, stripeVsMockttp);
  const allVerified = g.rounds.every((r) => stripeVerified(r.stripe));
  const i = median.interval;
  const rates = ingestRates(i);
  const keptAll = (i.durable ?? 0) >= i.acknowledged;
  const caughtUp = i.catchUpMs !== null && i.catchUpMs <= CATCH_UP_GOAL_MS && (i.stored ?? 0) >= i.acknowledged;
  const reads = g.withReaders.reads;
  const rounds = g.rounds.length;
  return [
    `| Ingest throughput, engine (sync \`interval\`, durable) / mockttp (HTTP Toolkit's engine), median of ${rounds} alternating round${rounds === 1 ? '' : 's'} | ${vsMockttp(median).toFixed(2)} (${fmt(i.load.rps)} / ${fmt(mockttpRps)} req/s; every round: ${roundRatios(g, vsMockttp)}) | >= 1.0 | ${verdict(vsMockttp(median) >= 1)} |`,
    `| Ingest p99 latency (sync \`interval\`) | ${i.load.p99} ms (p50 ${i.load.p50} ms) | < 20 ms | ${verdict(i.load.p99 < 20)} |`,
    `| Ingest throughput with Stripe verification / mockttp (every delivery 2xx and verified), median of ${rounds} alternating round${rounds === 1 ? '' : 's'} | ${stripeVsMockttp(stripeMedian).toFixed(2)} (${fmt(stripeMedian.stripe.load.rps)} / ${fmt(stripeMedian.mockttp.load.rps)} req/s; every round: ${roundRatios(g, stripeVsMockttp)}); ${stripeChecksText(g)} | >= 0.9 | ${verdict(stripeVsMockttp(stripeMedian) >= 0.9 && allVerified)} |`,
    `| The limit, not a goal: engine / bare \`node:http\` (a server that does nothing) | ${(i.load.rps / bareRps).toFixed(2)} (${fmt(i.load.rps)} / ${fmt(bareRps)} req/s) | reported | - |`,
    `| Every acknowledged delivery stored (sync \`interval\`) | ${fmt(i.durable ?? 0)} in the data directory after a kill, ${fmt(i.acknowledged)} acknowledged | all | ${verdict(keptAll)} |`,
    `| The database keeps up (sync \`interval\`): the list total reaches the acknowledged count after the load | ${fmt(i.acknowledged)} acknowledged; ${caughtUpText(i)} | within 1 s | ${verdict(caughtUp)} |`,
    `| Apply rate / acknowledgement rate (sync \`interval\`, from the warm-up's start) | ${rates.applied === null ? 'not caught up' : `${fmt(rates.applied)}`} / ${fmt(rates.acknowledged)} per s${rates.applied === null ? '' : ` (${(rates.applied / rates.acknowledged).toFixed(3)})`}, backlog drained ${rates.drainMs === null ? 'n/a' : ms(rates.drainMs)} after the load | applied >= acknowledged (within 1%) | ${verdict(rates.applied !== null && rates.applied >= APPLY_RATE_SHARE * rates.acknowledged)} |`,
    `| List page (\`limit=50\`) p95 while ingest runs at full speed | ${measured(reads.list) ? ms(reads.list.p95) : 'none measured'} (n=${fmt(reads.list.n)}${reads.listFailures > 0 ? `, ${reads.listFailures} failed` : ''}) | < 50 ms | ${verdict(measured(reads.list) && reads.list.p95 < 50 && reads.listFailures === 0)} |`,
    `| Delivery 2xx to its \`log.created\` on \`/api/events\` p95 while ingest runs at full speed | ${measured(reads.events) ? ms(reads.events.p95) : 'none measured'} (n=${fmt(reads.events.n)}${reads.missed > 0 ? `, **${reads.missed} never came**` : ''}) | < 50 ms | ${verdict(measured(reads.events) && reads.events.p95 < 50 && reads.missed === 0)} |`,
  ];
}

function loadRow(name: string, r: { load: IngestRun['load'] }, mockttpRps: number): string {
  const l = r.load;
  return `| ${name} | ${fmt(l.rps)} | ${(l.rps / mockttpRps).toFixed(2)} | ${l.p50} ms | ${l.p99} ms | ${l.max} ms | ${fmt(l.ok)} | ${fmt(l.non2xx)} | ${l.errors + l.timeouts} |`;
}

function storeRow(name: string, r: IngestRun): string {
  const rates = ingestRates(r);
  return `| ${name} | ${fmt(r.acknowledged)} | ${fmt(rates.acknowledged)} | ${caughtUpText(r)} | ${rates.applied === null ? 'n/a' : fmt(rates.applied)} | ${r.durable === null ? 'n/a' : fmt(r.durable)} |`;
}

function cpuRow(name: string, run: Pick<IngestRun, 'cpu'>, mockttpRps: number): string {
  const c = run.cpu;
  const sum = c.serverUs + c.loadUs;
  const bound = sum > 0 ? 2_000_000 / sum : 0;
  return `| ${name} | ${fmt(c.serverUs, 1)} µs | ${fmt(c.serverMainUs, 1)} µs | ${fmt(c.serverUs - c.serverMainUs, 1)} µs | ${fmt(c.loadUs, 1)} µs | ${fmt(sum, 1)} µs | ${fmt(bound)}/s | ${fmt(bound / mockttpRps, 2)} |`;
}

export function renderIngest(g: IngestResult): string {
  const o = g.options;
  const median = medianRound(g);
  const mockttpRps = median.mockttp.load.rps;
  const r = g.withReaders.reads;
  const many = g.rounds.length > 1;
  return [
    `### Ingest (${o.connections} connections, 1 KB bodies, ${o.seconds} s after a ${o.warmupSeconds} s warm-up)`,
    '',
    `"vs mockttp" is against mockttp's run in the same round, for the rounds; for the two runs after them, against the median round's (${fmt(mockttpRps)} req/s). mockttp kept ${fmt(median.mockttp.captured.requests)} requests with ${fmt(median.mockttp.captured.bodyBytes)} bytes of bodies in its median round (warm-up included).`,
    '',
    '| Server | 2xx req/s | vs mockttp | p50 | p99 | max | 2xx | non-2xx | errors |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...g.rounds.flatMap((round, n) => {
      const tag = many ? ` (round ${n + 1}${round === median ? ', the median' : ''})` : '';
      return [
        loadRow(`engine, sync \`interval\` (default)${tag}`, round.interval, round.mockttp.load.rps),
        loadRow(`mockttp, capturing every request with its body${tag}`, round.mockttp, round.mockttp.load.rps),
        loadRow(`engine, \`stripe\` endpoint (sync \`interval\`)${tag}`, round.stripe, round.mockttp.load.rps),
        loadRow(`bare \`node:http\` (the limit)${tag}`, round.bare, round.mockttp.load.rps),
      ];
    }),
    loadRow('engine, sync `strict`', g.strict, mockttpRps),
    loadRow('engine, sync `interval`, with the readers below', g.withReaders, mockttpRps),
    '',
    `| CPU per 2xx answer (measured run${many ? '; the median round' : ''}) | server process | its main thread | its other threads | load generator | sum | at most on 2 cores | vs mockttp |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...(
      [
        ['engine, sync `interval`', median.interval],
        ['mockttp', median.mockttp],
        ['bare `node:http`', median.bare],
        ['engine, `stripe` endpoint', median.stripe],
        ['engine, sync `strict`', g.strict],
      ] as const
    ).map(([name, run]) => cpuRow(name, run, mockttpRps)),
    '',
    "The server process counts all its threads; its main thread is the engine's HTTP side (receiver, journal, " +
      "answers), its other threads the store's worker, file I/O on libuv's pool and V8's helpers (from /proc, " +
      'in 10 ms ticks). The load ' +
      "generator is autocannon in the benchmark's process. Both share the machine's 2 cores, so no server can answer " +
      'faster than 2,000,000 µs / (server + load generator) per second; the last two columns are that bound and its ' +
      "ratio to mockttp's rate. A goal ratio above the bound cannot be met on this machine without the engine doing " +
      'less per delivery.',
    '',
    '| Run | acknowledged (warm-up + run) | acknowledged/s | listed by the API after the load | applied/s | in the data directory after a kill |',
    '| --- | ---: | ---: | --- | ---: | ---: |',
    storeRow('sync `interval`', median.interval),
    storeRow('`stripe` endpoint', median.stripe),
    storeRow('sync `strict`', g.strict),
    '',
    'After each engine run (but the one with readers) the API is asked for the list total until it reaches the ' +
      "acknowledged count. A read queues behind every journaled record the store's worker has not applied yet, so " +
      'the wait shows how far the database fell behind the acknowledgements (the limit is ' +
      `${fmt(o.catchUpLimitMs.interval / 1000)} s with \`interval\`, ${fmt(o.catchUpLimitMs.strict / 1000)} s with \`strict\`). ` +
      "Acknowledged/s is the 2xx answers of the warm-up and the run over the time from the warm-up's start to the load's end; " +
      'applied/s is the list total over the time from the same start until it was reached, less the round trip of ' +
      'the same list call once caught up (median of 5), which is no backlog. ' +
      'Then the engine is killed (SIGKILL) and its data directory read without it: the logs in the snapshot plus the log inserts journaled after it, ' +
      `i.e. what a restart recovers. That count (and the list total) may exceed the acknowledged one by up to ${o.connections} per autocannon run ` +
      '(requests in flight when autocannon stops are stored but not counted). ' +
      `With \`strict\`: ${(g.strict.durable ?? 0) >= g.strict.acknowledged ? 'every acknowledged delivery was in the data directory too' : '**not every acknowledged delivery was in the data directory**'}. ` +
      `Stripe: ${stripeChecksText(g)}.`,
    '',
    '| Reads during the full-speed run (a process of their own) | Figure |',
    '| --- | --- |',
    `| \`GET /api/webhooks/logs?limit=50\`, one call at a time | ${timingsText(r.list)}; failed ${r.listFailures} |`,
    `| Marked delivery's 2xx to its \`log.created\` on \`/api/events\`, one every ${o.markEveryMs} ms | ${timingsText(r.events)}; never came: ${r.missed}; came before the 2xx (counted as 0 ms): ${r.beforeAck} |`,
    `| Marked deliveries sent / answered 2xx / not | ${fmt(r.marked.sent)} / ${fmt(r.marked.acknowledged)} / ${fmt(r.marked.notAcknowledged)} |`,
    `| \`log.created\` events the subscriber received; stream reconnects | ${fmt(r.eventsReceived)}; ${r.reconnects}${r.streamError === null ? '' : ` (stopped: ${r.streamError})`} |`,
    '',
  ].join('\n');
}
