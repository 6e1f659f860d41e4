// Fills a store the way users do: deliveries through the receiver over HTTP (autocannon),
// for both backends (the seeded sql.js stores and PostgreSQL behind `serve --database`).
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

/** 1 delivery in 7 carries a wrong signature, so it is stored as failed verification... */
export const SEED_FAILED_EVERY = 7;
/** ...but none of those sent to the fifth endpoint: a failed filter there matches nothing, the worst case for its index. */
export const CLEAN_ENDPOINT = 4;

/**
 * Whether delivery `n` fails: of every 35 (five endpoints round-robin, seven residues), the 4 with
 * n % 7 = 0 not sent to CLEAN_ENDPOINT, and n % 35 = 15 (first endpoint) instead of the fifth's: 5 in 35.
 */
export function seedFails(n: number): boolean {
  return (n % SEED_FAILED_EVERY === 0 && n % 5 !== CLEAN_ENDPOINT) || n % 35 === 15;
}

/** The GitHub event each delivery names (X-GitHub-Event), 1 in 8 each; the list's eventType filter aims at them. */
export const GITHUB_EVENTS = [
  'push',
  'pull_request',
  'issues',
  'issue_comment',
  'workflow_run',
  'check_run',
  'release',
  'star',
];

/** GitHub's `X-Hub-Signature-256` of `body`. */
export const githubSignature = (secret: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Delivery `j` (in the order autocannon sends them) carries seedBody(j): unique, about 1 KB, 1 in
 * 100 of 64-256 KB; the search terms of seed-logs.ts match 20 in 100,000 logs for the rare one, 1
 * in 8 for the common one, none for the absent one. Exactly five endpoints (seedFails counts on it).
 */
export async function seedThroughReceiver(o: HttpSeedOptions): Promise<HttpSeedResult> {
  if (!o.receiverUrl.startsWith('http://127.0.0.1:')) throw new Error(`benchmarks send to loopback only`);
  if (o.endpointIds.length !== 5) throw new Error(`the seeding sends to five endpoints, not ${o.endpointIds.length}`);
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
              'x-github-event': GITHUB_EVENTS[n % GITHUB_EVENTS.length]!,
              'x-hub-signature-256': seedFails(n) ? wrong : githubSignature(o.secret, body),
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
