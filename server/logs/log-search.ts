import { likeMatchesBytes, type LikeTerm } from './like-text.ts';

/*
 * What both backends' searches share (server/storage/sqljs/log-search-sqljs.ts,
 * server/storage/postgres/logs-postgres.ts): the index (search-index.ts) gives the
 * candidates, and the bodies of those not matched by their path or headers are
 * checked here, exactly, as `LIKE '%term%'` matched them (like-text.ts).
 */

/** A log whose body is to be checked: its seq and its body's stored size. */
export interface BodyCandidate {
  seq: number;
  size: number;
}

/** Bodies of logs by seq; a log gone by now is simply absent from the map. */
export type BodyReader = (seqs: readonly number[]) => Promise<Map<number, Uint8Array>>;

/**
 * Bodies are read and checked in batches of at most this many bytes (or one body):
 * memory stays bounded, and reading one batch overlaps checking the one before.
 */
const BATCH_BYTES = 2 * 1024 * 1024;

/**
 * The exact check of candidates' bodies: which of them have a body containing the term.
 * Where the bodies come from is `readBodies`'s business.
 */
export async function matchingBodies(
  candidates: readonly BodyCandidate[],
  term: LikeTerm,
  readBodies: BodyReader,
): Promise<number[]> {
  const batches = bodyBatches(candidates);
  const out: number[] = [];
  // The next batch is being read (in the database's thread) while this one is checked.
  let next = batches.length > 0 ? readBodies(batches[0]!) : null;
  for (let b = 0; next; b++) {
    const bodies = await next;
    next = b + 1 < batches.length ? readBodies(batches[b + 1]!) : null;
    for (const [seq, body] of bodies) if (likeMatchesBytes(term, body)) out.push(seq);
  }
  return out;
}

/** The candidates' seqs in batches of at most BATCH_BYTES of bodies (or one body), in order. */
export function bodyBatches(candidates: readonly BodyCandidate[]): number[][] {
  const batches: number[][] = [];
  for (let i = 0, bytes = 0; i < candidates.length; i++) {
    if (batches.length === 0 || bytes + candidates[i]!.size > BATCH_BYTES) {
      batches.push([]);
      bytes = 0;
    }
    batches.at(-1)!.push(candidates[i]!.seq);
    bytes += candidates[i]!.size;
  }
  return batches;
}
