// Fills a store with realistic logs fast: the repository's insert, many at a time,
// instead of one delivery at a time through the receiver.
import { monotonicFactory } from 'ulid';
import type { NewLog } from '../../server/logs/log-types.ts';
import { ACCEPTED, VERIFICATION_FAILED } from '../../server/logs/sender-answers.ts';
import { SqljsLogsRepository } from '../../server/storage/sqljs/logs-sqljs.ts';
import type { LogVerification } from '../../server/logs/logs-schemas.ts';
import type { Store, WriteReceipt } from '../../server/store/store-types.ts';

export interface SeedOptions {
  accountId: string;
  endpointIds: string[];
  count: number;
  /** Logs are spread evenly over [now - spanMs, now). */
  now: number;
  spanMs: number;
  /** Store a JSON body of 512-1535 bytes per log (about 1 KB on average); otherwise no bodies. */
  withBodies: boolean;
}

const BATCH = 2_000;
const EVENT_TYPES = [
  'invoice.paid',
  'invoice.payment_failed',
  'charge.succeeded',
  'charge.refunded',
  'customer.created',
  'customer.updated',
  'payment_intent.created',
  'checkout.session.completed',
];
const REASONS = ['missing_header', 'no_matching_signature', 'timestamp_outside_tolerance'];
// Words for the bodies' free text, picked per log by a PRNG: bodies differ all through, as real
// ones do, instead of repeating one filler (which gave every body the same few trigrams, so
// the search index's rows were fewer and emptier than real traffic's). None holds a search term.
const WORDS = (
  'account amount balance card charge checkout coupon credit customer debit delivery discount dispute ' +
  'email invoice item line method note order owner payment payout plan price product quantity receipt ' +
  'refund renewal shipping source status subscription tax total transfer trial usage wallet address ' +
  'billing city country currency period postal region session state street summary tier unit value'
).split(' ');
/** 1 in LARGE_EVERY bodies is large: LARGE_MIN to LARGE_MIN + LARGE_SPAN bytes (64 KB to 256 KB). */
export const LARGE_EVERY = 100;
const LARGE_MIN = 64 * 1024;
const LARGE_SPAN = 192 * 1024;

/** mulberry32: a small seeded PRNG, so body j is the same in every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `bytes` of words (and a number now and then), different for every seed. */
function freeText(seed: number, bytes: number): string {
  const next = prng(seed);
  const parts: string[] = [];
  for (let n = 0; n < bytes;) {
    const w = next() < 0.15 ? String(Math.floor(next() * 100_000)) : WORDS[Math.floor(next() * WORDS.length)]!;
    parts.push(w);
    n += w.length + 1;
  }
  return parts.join(' ').slice(0, bytes);
}

/** What each seeded log's body says, so searches can be aimed at a known number of logs. */
export const SEARCH_TERMS = {
  /** In 1 of every 5,000 logs' bodies (`customer` is `cus_<j % 5000>`). */
  rare: 'cus_4242"',
  /** In 1 of every 8 logs' bodies. */
  common: 'invoice.payment_failed',
  /** In none. */
  absent: 'no-such-text-anywhere',
} as const;

/**
 * Body j: a Stripe-like event of 512-1535 bytes of JSON, or with `large`, 1 in LARGE_EVERY one of
 * 64-256 KB (its object carries line items); unique (its ids, amounts and words come from j).
 */
export function seedBody(j: number, createdSec: number, o: { large: boolean } = { large: true }): string {
  const head = `{"id":"evt_${j}","type":"${EVENT_TYPES[j % 8]}","created":${createdSec},"data":{"object":{"id":"ch_${j.toString(36)}","customer":"cus_${j % 5000}","amount":${(j * 37) % 100_000},"currency":"usd","description":"`;
  const large = o.large && j % LARGE_EVERY === LARGE_EVERY / 2;
  const target = large ? LARGE_MIN + ((j * 7919) % LARGE_SPAN) : 512 + ((j * 7919) % 1024);
  if (!large) {
    const tail = '"}}}';
    return head + freeText(j, Math.max(0, target - head.length - tail.length)) + tail;
  }
  const items: string[] = [];
  let bytes = head.length + 40;
  for (let k = 0; bytes < target; k++) {
    const item = `{"id":"li_${j.toString(36)}_${k}","quantity":${(j + k) % 9},"description":"${freeText(j * 1000 + k, 120)}"}`;
    items.push(item);
    bytes += item.length + 1;
  }
  return `${head}${freeText(j, 80)}","lines":[${items.join(',')}]}}}`;
}

/** The capture of seeded log `j`: a Stripe-like event (1 in 7 failed verification). */
export function seededLog(
  j: number,
  o: { accountId: string; endpointIds: string[]; receivedAt: number; withBodies: boolean },
): NewLog {
  const { receivedAt } = o;
  const failed = j % 7 === 0;
  // About 1 KB each: the insert benchmark (log-insert.bench.ts) weighs a typical delivery.
  const body = o.withBodies
    ? Buffer.from(seedBody(j, Math.floor(receivedAt / 1000), { large: false }))
    : Buffer.alloc(0);
  const size = o.withBodies ? body.length : 200 + ((j * 7919) % 4000);
  const rawHeaders: [string, string][] = [
    ['host', '127.0.0.1:4681'],
    ['user-agent', 'Stripe/1.0 (+https://stripe.com/docs/webhooks)'],
    ['content-type', 'application/json; charset=utf-8'],
    ['content-length', String(size)],
    ['stripe-signature', `t=${Math.floor(receivedAt / 1000)},v1=${(j * 2654435761).toString(16).padStart(64, '0')}`],
  ];
  return {
    accountId: o.accountId,
    endpointId: o.endpointIds[j % o.endpointIds.length]!,
    method: 'POST',
    path: '/',
    query: {},
    rawHeaders,
    contentType: 'application/json; charset=utf-8',
    size,
    declaredSize: size,
    body,
    truncated: false,
    sourceIp: '127.0.0.1',
    receivedAt,
    durationMs: 1,
    status: failed ? 'failed' : 'success',
    verification: {
      scheme: 'hmac_sha256',
      result: failed ? 'invalid' : 'valid',
      reason: failed ? REASONS[j % 3]! : null,
      detail: null,
      matchedSecret: null,
    } as LogVerification,
    eventType: EVENT_TYPES[j % 8]!,
    answer: failed ? VERIFICATION_FAILED : ACCEPTED,
  };
}

/**
 * Inserts `count` logs (1 in 7 failed verification) and returns the time it took in ms.
 * Through the logs repository's own insert, so the seeded store has exactly what a
 * delivery writes (the body spilled to the blob files, every index and trigger), with
 * retention out of the way; durable writes in batches, which the store applies in groups.
 */
export async function seedLogs(store: Store, o: SeedOptions): Promise<number> {
  const ulid = monotonicFactory();
  const repo = new SqljsLogsRepository(store, () => ({
    maxLogsPerAccount: Number.MAX_SAFE_INTEGER,
    maxBodyBytesPerAccount: Number.MAX_SAFE_INTEGER,
  }));
  const started = performance.now();
  for (let i = 0; i < o.count; i += BATCH) {
    const writes: Promise<WriteReceipt>[] = [];
    for (let j = i; j < Math.min(o.count, i + BATCH); j++) {
      const receivedAt = o.now - o.spanMs + Math.floor((j / o.count) * o.spanMs);
      const id = `log_${ulid(receivedAt).toLowerCase()}`;
      const log = seededLog(j, {
        accountId: o.accountId,
        endpointIds: o.endpointIds,
        receivedAt,
        withBodies: o.withBodies,
      });
      writes.push(repo.insert(id, log, 'durable'));
    }
    const receipts = await Promise.all(writes);
    await Promise.all(receipts.map((r) => r.settled));
  }
  return performance.now() - started;
}
