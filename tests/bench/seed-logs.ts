// Fills a store with realistic logs fast: straight inserts in batches of one
// journal record each, instead of one delivery (and one retention pass) per log.
import { monotonicFactory } from 'ulid';
import { searchIndexOp } from '../../server/logs/search-index.ts';
import type { Store, WriteOp } from '../../server/store/store-types.ts';

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
const FILLER = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt. ';

/** What each seeded log's body says, so searches can be aimed at a known number of logs. */
export const SEARCH_TERMS = {
  /** In 1 of every 5,000 logs' bodies (`customer` is `cus_<j % 5000>`). */
  rare: 'cus_4242"',
  /** In 1 of every 8 logs' bodies. */
  common: 'invoice.payment_failed',
  /** In none. */
  absent: 'no-such-text-anywhere',
} as const;

export function seedBody(j: number, createdSec: number): string {
  const head = `{"id":"evt_${j}","type":"${EVENT_TYPES[j % 8]}","created":${createdSec},"data":{"object":{"id":"ch_${j.toString(36)}","customer":"cus_${j % 5000}","amount":${(j * 37) % 100_000},"currency":"usd","description":"`;
  const tail = '"}}}';
  const target = 512 + ((j * 7919) % 1024);
  const room = Math.max(0, target - head.length - tail.length);
  return head + FILLER.repeat(Math.ceil(room / FILLER.length)).slice(0, room) + tail;
}

/** Inserts `count` logs (1 in 7 failed verification) and returns the time it took in ms. */
export async function seedLogs(store: Store, o: SeedOptions): Promise<number> {
  const ulid = monotonicFactory();
  const started = performance.now();
  for (let i = 0; i < o.count; i += BATCH) {
    const ops: WriteOp[] = [];
    for (let j = i; j < Math.min(o.count, i + BATCH); j++) {
      const receivedAt = o.now - o.spanMs + Math.floor((j / o.count) * o.spanMs);
      const id = `log_${ulid(receivedAt).toLowerCase()}`;
      const failed = j % 7 === 0;
      const body = o.withBodies ? Buffer.from(seedBody(j, Math.floor(receivedAt / 1000))) : null;
      const size = body ? body.length : 200 + ((j * 7919) % 4000);
      const headers: [string, string][] = [
        ['host', '127.0.0.1:4681'],
        ['user-agent', 'Stripe/1.0 (+https://stripe.com/docs/webhooks)'],
        ['content-type', 'application/json; charset=utf-8'],
        ['content-length', String(size)],
        [
          'stripe-signature',
          `t=${Math.floor(receivedAt / 1000)},v1=${(j * 2654435761).toString(16).padStart(64, '0')}`,
        ],
      ];
      const reason = failed ? REASONS[j % 3]! : null;
      const verification = {
        scheme: 'hmac_sha256',
        result: failed ? 'invalid' : 'valid',
        reason,
        detail: null,
        matchedSecret: null,
      };
      ops.push({
        sql: `INSERT INTO logs (id, account_id, endpoint_id, method, path, query, raw_headers, content_type, size,
                stored_size, truncated, source_ip, received_at, duration_ms, status, verification)
              VALUES (?, ?, ?, 'POST', '/', '{}', ?, 'application/json; charset=utf-8', ?, ?, 0, '127.0.0.1', ?, 1, ?, ?)`,
        params: [
          id,
          o.accountId,
          o.endpointIds[j % o.endpointIds.length]!,
          JSON.stringify(headers),
          size,
          body ? body.length : size,
          receivedAt,
          failed ? 'failed' : 'success',
          JSON.stringify(verification),
        ],
      });
      if (body)
        ops.push({
          sql: 'INSERT INTO log_bodies (log_seq, body) VALUES ((SELECT seq FROM logs WHERE id = ?), ?)',
          params: [id, body],
        });
      // The text-search index, as LogsRepository.insert writes it.
      ops.push(searchIndexOp(id, '/', JSON.stringify(headers), body ?? new Uint8Array(0)));
    }
    await store.write(ops, 'applied');
  }
  return performance.now() - started;
}
