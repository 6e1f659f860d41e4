import type { Analysis } from './remediation-schemas.ts';

/** The stored form: the analysis without `cached`, which describes the answer, not the analysis. */
export type StoredAnalysis = Omit<Analysis, 'cached'>;

/**
 * Where analyses are stored: what RemediationService needs, whatever the backend
 * (server/storage/sqljs/remediation-sqljs.ts, server/storage/postgres/remediation-postgres.ts).
 * tests/contract/remediation-contract.ts holds every backend to this contract.
 *
 * One analysis per log, keyed by its `logId` (log ids are unique across accounts).
 * An analysis comes back exactly as saved, as its JSON: every string byte for
 * byte, numbers as written, keys in the order written; a key whose value is
 * `undefined` is not stored, as JSON.stringify leaves it out. Every read and
 * delete is scoped by account: another account's analysis is never found or removed.
 *
 * An analysis lives no longer than its log: deleting the log deletes it in the
 * same write (sql.js: the analyses_follow_logs trigger; PostgreSQL: a foreign
 * key ON DELETE CASCADE), and one saved for a log already gone is not kept.
 */
export interface RemediationRepository {
  /** The analysis of log `logId` saved by `accountId`, or undefined when there is none (another account's included). */
  find(accountId: string, logId: string): Promise<StoredAnalysis | undefined>;

  /**
   * Stores `analysis` for its log, replacing the one saved before (a refresh):
   * the log keeps one analysis. `endpointId` is the log's endpoint, for
   * deleteForEndpoint; `createdAt` is when it was made, in epoch milliseconds.
   */
  save(accountId: string, endpointId: string, analysis: StoredAnalysis, createdAt: number): Promise<void>;

  /** Removes every analysis of `accountId`'s endpoint `endpointId`; other endpoints' and accounts' stay. */
  deleteForEndpoint(accountId: string, endpointId: string): Promise<void>;
}
