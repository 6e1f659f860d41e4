/** Rejections of one endpoint in one bucket for one reason (only non-empty cells). */
export interface RejectionCell {
  endpointId: string;
  bucket: number;
  reason: string;
  count: number;
  lastAt: number;
}

/** Rejections to add: `count` of them in one minute, the latest at `lastAt`. */
export interface RejectionTally {
  accountId: string;
  endpointId: string;
  minute: number;
  reason: string;
  count: number;
  lastAt: number;
}

/**
 * Where refusal counts are stored: what MetricsService and RefusalsService need,
 * whatever the backend (server/storage/sqljs/metrics-sqljs.ts,
 * server/storage/postgres/metrics-postgres.ts). tests/contract/metrics-contract.ts
 * holds every backend to this contract.
 *
 * Counts are kept per (account, endpoint, minute, reason), minutes as epoch ms
 * on a whole minute. Counts from calls running at the same time, on one
 * instance or several, all add up: none is lost.
 */
export interface MetricsRepository {
  /**
   * Adds each tally's `count` to its (account, endpoint, minute, reason) cell,
   * whose `lastAt` becomes the later of the stored one and the tally's, and
   * drops each tallied account's cells whose minute is before
   * `pruneBeforeMs(accountId)` (other accounts' stay), all in one atomic write.
   * Resolves once that write is durable: the sender's answer waits for it, so
   * an answered rejection is counted even after a crash.
   */
  countRejections(tallies: RejectionTally[], pruneBeforeMs: (accountId: string) => number): Promise<void>;

  /**
   * `accountId`'s rejections whose minute is in [fromMs, toMs), summed per
   * endpoint, bucket and reason, each cell with the latest `lastAt` of its
   * minutes; only `endpointId`'s when given. `bucket` is
   * floor((minute - fromMs) / bucketMs), `bucketMs` a whole number of minutes
   * and `fromMs` on a minute. Cells come in no particular order.
   */
  rejections(
    accountId: string,
    fromMs: number,
    toMs: number,
    bucketMs: number,
    endpointId?: string,
  ): Promise<RejectionCell[]>;
}
