// The part of autocannon's programmatic API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    timeout?: number;
    overallRate?: number;
    /** Requests in turn on each connection; `setupRequest` may rewrite each one just before it is sent. */
    requests?: Request[];
  }
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (req: Request) => Request;
  }
  interface Histogram {
    average: number;
    mean: number;
    max: number;
    min: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    total: number;
  }
  interface Result {
    duration: number;
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    /** Answers by HTTP status code. */
    statusCodeStats: Record<string, { count: number }>;
    totalRequests: number;
    totalCompletedRequests: number;
  }
  /**
   * The run; also stoppable early (then it resolves with what was measured so far).
   * A thenable, not a Promise: it has no catch or finally.
   */
  function autocannon(opts: Options): PromiseLike<Result> & { stop(): void };
  export default autocannon;
}
