import autocannon from 'autocannon';

export interface LoadResult {
  /** 2xx answers per second over the measured run. */
  rps: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  p50: number;
  p99: number;
  max: number;
  seconds: number;
  /** Answers by HTTP status code (2xx included). */
  statuses: Record<string, number>;
}

export interface LoadOptions {
  connections: number;
  /** The upper bound of the run. */
  seconds: number;
  body: string;
  /** Ends the run sooner once settled. */
  stopWhen?: Promise<unknown>;
  /** Requests per second over all connections; as fast as answers come when absent. */
  rate?: number;
  /** Stop after this many requests (`seconds` still bounds the run). */
  amount?: number;
  /** Sent with every request, next to `content-type` (the same value for the whole run). */
  headers?: Record<string, string>;
}

/** A JSON body of exactly `bytes` bytes, shaped like a webhook event. */
export function webhookBody(bytes = 1024): string {
  const head = '{"id":"evt_bench","type":"invoice.paid","data":{"amount":4200,"currency":"usd","note":"';
  const tail = '"}}';
  return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
}

/**
 * POSTs `body` at `url` from `connections` keep-alive connections for `seconds`
 * (autocannon stops by itself), or until `stopWhen` settles if that is sooner. Latencies are autocannon's, in whole ms, of 2xx answers.
 */
export async function postLoad(url: string, opts: LoadOptions): Promise<LoadResult> {
  if (!url.startsWith('http://127.0.0.1:')) throw new Error(`benchmarks send to loopback only, not ${url}`);
  const run = autocannon({
    url,
    method: 'POST',
    connections: opts.connections,
    duration: opts.seconds,
    timeout: 10,
    headers: { 'content-type': 'application/json', ...opts.headers },
    body: opts.body,
    ...(opts.rate ? { overallRate: opts.rate } : {}),
    ...(opts.amount ? { amount: opts.amount } : {}),
  });
  // `seconds` stays the upper bound (autocannon ignores its duration when given an amount);
  // stopWhen only ends the run sooner.
  const cap = opts.amount ? setTimeout(() => run.stop(), opts.seconds * 1000) : undefined;
  opts.stopWhen?.then(
    () => run.stop(),
    () => run.stop(),
  );
  const r = await settledRun(run, cap);
  return {
    rps: r['2xx'] / r.duration,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    seconds: r.duration,
    statuses: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

/** An autocannon run's result, its cap timer cleared either way (the run is a thenable only: no finally). */
export function settledRun<R>(run: PromiseLike<R>, cap: NodeJS.Timeout | undefined): Promise<R> {
  return Promise.resolve(run).finally(() => clearTimeout(cap));
}
