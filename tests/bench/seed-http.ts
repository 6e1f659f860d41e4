// Fills a store the way users do: deliveries through the receiver over HTTP (autocannon),
// for a backend whose store the benchmark cannot write directly (PostgreSQL behind `serve --database`).
import { createHmac } from 'node:crypto';
import autocannon from 'autocannon';
import { settledRun } from './load.ts';
import { seedBody } from './seed-logs.ts';

export interface HttpSeedOptions {
  receiverUrl: string;
  /** GitHub endpoints sharing `secret`; deliveries go round-robin over them. */
  endpointIds: string[];
  secret: string;
  count: number;
  connections: number;
  /** The upper bound of the seeding, in seconds. */
  maxSeconds: number;
}

export interface HttpSeedResult {
  ms: number;
  /** Answers by HTTP status code. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
}

/** Every 7th delivery carries a wrong signature, so it is stored as failed verification. */
export const SEED_FAILED_EVERY = 7;

const signature = (secret: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Delivery `j` (in the order autocannon sends them) carries seedBody(j): the search terms
 * of seed-logs.ts match the same share of logs as in the seeded sql.js stores (20 in
 * 100,000 for the rare one, 1 in 8 for the common one, none for the absent one).
 */
export async function seedThroughReceiver(o: HttpSeedOptions): Promise<HttpSeedResult> {
  if (!o.receiverUrl.startsWith('http://127.0.0.1:')) throw new Error(`benchmarks send to loopback only`);
  const nowSec = Math.floor(Date.now() / 1000);
  const wrong = `sha256=${'0'.repeat(64)}`;
  let j = 0;
  const t0 = performance.now();
  const run = autocannon({
    url: o.receiverUrl,
    connections: o.connections,
    amount: o.count,
    duration: o.maxSeconds,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const n = j++;
          const body = seedBody(n, nowSec);
          return {
            ...req,
            path: `/webhook/${o.endpointIds[n % o.endpointIds.length]}`,
            headers: {
              'content-type': 'application/json',
              'x-github-event': 'invoice',
              'x-hub-signature-256': n % SEED_FAILED_EVERY === 0 ? wrong : signature(o.secret, body),
            },
            body,
          };
        },
      },
    ],
  });
  const cap = setTimeout(() => run.stop(), o.maxSeconds * 1000);
  const r = await settledRun(run, cap);
  return {
    ms: performance.now() - t0,
    statuses: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count])),
    errors: r.errors,
    timeouts: r.timeouts,
  };
}
