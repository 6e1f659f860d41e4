import { likeTerm, type LikeTerm } from '../../logs/like-text.ts';
import { bodyBatches, type BodyCandidate, type BodyReader } from '../../logs/log-search.ts';
import {
  indexProbe,
  MAX_INDEXED_BODY,
  probeCondition,
  probeWords,
  ROW_BYTES,
  ROWS_PER_LOG,
} from '../../logs/search-index.ts';
import type { SqlValue, Store } from '../../store/store-types.ts';
import { STORED_HEADERS } from './stored-headers-sqljs.ts';

/** The filters of a page other than the search, over `logs l`. */
export interface LogFilter {
  where: string;
  params: SqlValue[];
}

/**
 * The seqs of the logs passing `filter` whose path, headers or body contain `search`
 * as `LIKE '%search%'` matched them (like-text.ts), newest first.
 *
 * The index (search-index.ts) gives the candidates. Their path and headers are checked with
 * that same LIKE in SQL, and so are the bodies of the others: all in the store's worker, which
 * reads headers and bodies from the blob files (`blob_value`; stored-headers-sqljs.ts).
 */
export async function searchLogs(store: Store, filter: LogFilter, search: string): Promise<number[]> {
  const term = likeTerm(search);
  const probe = probeCondition(indexProbe(term));
  const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // One row back, lists in it: sql.js costs about 2 us per result row, as much as the
  // scan. A seq is negated when the path or headers matched. A log with several index
  // rows is listed once per passing row (cheaper deduplicated here than by DISTINCT).
  const found = await store.get<{ seqs: string; sizes: string }>(
    `SELECT json_group_array(CASE WHEN hit THEN -seq ELSE seq END) AS seqs, json_group_array(size) AS sizes
     FROM (SELECT l.seq, l.stored_size AS size, l.path LIKE ?1 ESCAPE '\\' OR ${STORED_HEADERS} LIKE ?1 ESCAPE '\\' AS hit
           FROM log_search s CROSS JOIN logs l ON l.seq = s.key / ${ROWS_PER_LOG}
           WHERE ${probe.sql} AND ${filter.where})`,
    [like, ...probe.params, ...filter.params],
  );
  const seqs = JSON.parse(found?.seqs ?? '[]') as number[];
  const sizes = JSON.parse(found?.sizes ?? '[]') as number[];
  const hits: number[] = [];
  const others: BodyCandidate[] = [];
  let last = 0;
  seqs.forEach((s, i) => {
    if (s === last) return;
    last = s;
    if (s < 0) hits.push(-s);
    else others.push({ seq: s, size: sizes[i]! });
  });
  const inBody = await bodiesLike(store, await withoutSpilledMisses(store, others, term), like);
  return Array.from(Float64Array.from(hits.concat(inBody)).sort().reverse());
}

/**
 * The candidates whose body is `LIKE` the pattern, checked in the store's worker a batch at a
 * time (writes queued meanwhile go between batches). The inline `body` column holds the bodies
 * of logs stored before the blob files.
 */
async function bodiesLike(store: Store, candidates: readonly BodyCandidate[], like: string): Promise<number[]> {
  const out: number[] = [];
  for (const batch of bodyBatches(candidates)) {
    const rows = await store.all<{ seq: number }>(
      `SELECT b.log_seq AS seq FROM json_each(?1) j CROSS JOIN log_bodies b ON b.log_seq = j.value
       WHERE COALESCE(blob_value(b.location, b.length), b.body) LIKE ?2 ESCAPE '\\'`,
      [JSON.stringify(batch), like],
    );
    for (const r of rows) out.push(r.seq);
  }
  return out;
}

/**
 * The candidates less the large bodies whose signature (search-index-sqljs.ts: their only row in
 * log_search is a full one) rules the term out: their bodies are not read. Measured at 100,000
 * deliveries, 1 in 100 of 64-256 KB: 17 MB of signatures read (in the worker) instead of 160 MB of bodies.
 */
async function withoutSpilledMisses(
  store: Store,
  candidates: BodyCandidate[],
  term: LikeTerm,
): Promise<BodyCandidate[]> {
  const probe = probeWords(term);
  const large = candidates.filter((c) => c.size > MAX_INDEXED_BODY);
  if (probe.length === 0 || large.length === 0) return candidates;
  const misses = await store.all<{ seq: number }>(
    `SELECT s.log_seq AS seq FROM json_each(?1) j CROSS JOIN log_search_spilled s ON s.log_seq = j.value
     WHERE NOT blob_has_bits(s.location, s.length, ${ROW_BYTES}, ?2)`,
    [JSON.stringify(large.map((c) => c.seq)), JSON.stringify(probe)],
  );
  if (misses.length === 0) return candidates;
  const ruledOut = new Set(misses.map((m) => m.seq));
  return candidates.filter((c) => !ruledOut.has(c.seq));
}

/**
 * Bodies as stored: read from the store's blob files where the row has a location
 * (the worker reads them while it steps the rows, one message per batch), or the
 * inline column for logs stored before the blob files.
 */
export function storedBodies(store: Store): BodyReader {
  return async (seqs) => {
    const rows = await store.all<{ seq: number; body: Uint8Array }>(
      `SELECT b.log_seq AS seq, b.body, b.location, b.length
       FROM json_each(?) j CROSS JOIN log_bodies b ON b.log_seq = j.value`,
      [JSON.stringify(seqs)],
      { location: 'location', length: 'length', into: 'body' },
    );
    return new Map(rows.map((r) => [r.seq, r.body]));
  };
}
