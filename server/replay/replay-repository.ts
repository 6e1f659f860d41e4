import type { StoredReplay } from './replay-types.ts';

/** What stats read of an attempt. */
export type ReplayOutcome = Pick<StoredReplay, 'status' | 'error' | 'responseTime' | 'trigger'>;

/**
 * Where replay history is kept (manual replays and forwards alike): what
 * ReplayService needs, whatever the backend (server/storage/sqljs/replay-sqljs.ts,
 * server/storage/postgres/replay-postgres.ts). tests/contract/replay-contract.ts
 * holds every backend to this contract.
 *
 * An attempt comes back exactly as inserted: every string byte for byte (U+0000
 * and any other code point included, null and '' kept apart), numbers as numbers,
 * header pairs in order, bodies byte for byte (an edited attempt's empty body is
 * an empty Buffer, a method-only edit's body null). Reads are scoped by account:
 * another account's attempt is never found, counted or removed.
 *
 * History is newest first: by `createdAt`, and among equal times the one inserted
 * later first.
 *
 * An attempt lives no longer than its log: deleting the log removes its attempts,
 * with their edited requests, in the same write (sql.js: the replays_follow_logs
 * trigger; PostgreSQL: a foreign key ON DELETE CASCADE). An attempt inserted
 * after its log is gone (deleted while the request was out) is not an error:
 * `insert` resolves either way. PostgreSQL stores nothing then; sql.js stores
 * it beyond its trigger's reach, where only the gone log's id finds it and the
 * account's eviction ends it (its SQL is kept as it was).
 */
export interface ReplayRepository {
  /**
   * Stores an attempt (its id is new) and, when `r.edited`, its request as sent
   * (`requestBody`, `requestBodySize`). With `evictBeyond` set, then keeps only
   * the newest `evictBeyond` attempts of `r.accountId` (history's order) and
   * removes the rest with their edited requests; other accounts' stay.
   */
  insert(r: StoredReplay, evictBeyond: number | null): Promise<void>;

  /**
   * A page of log `logId`'s attempts newest first, and how many it has in all.
   * A list carries no bodies: `responseBody` is empty and `requestBody` and
   * `requestBodySize` are null (`edited` still says whether it was edited).
   */
  forLog(
    accountId: string,
    logId: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: StoredReplay[]; total: number }>;

  /** The attempt `id` of `accountId` with its bodies, or undefined (another account's included). */
  find(accountId: string, id: string): Promise<StoredReplay | undefined>;

  /** Every attempt of `accountId` created at or after `sinceMs`, in no particular order. */
  since(accountId: string, sinceMs: number): Promise<ReplayOutcome[]>;

  /**
   * When the endpoint's forward target last accepted a delivery: the greatest
   * `createdAt + responseTime` of its forwards that had no error and a status
   * below 400; null when none did.
   */
  lastForwardDelivered(accountId: string, endpointId: string): Promise<number | null>;

  /** Removes every attempt of `accountId`'s endpoint `endpointId`; other endpoints' and accounts' stay. */
  deleteForEndpoint(accountId: string, endpointId: string): Promise<void>;
}
