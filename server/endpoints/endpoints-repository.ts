import type { EndpointRecord } from './endpoint-types.ts';

/**
 * Where endpoints are stored: what EndpointsService needs, whatever the backend
 * (server/storage/sqljs/endpoints-sqljs.ts, server/storage/postgres/endpoints-postgres.ts).
 * tests/contract/endpoints-contract.ts holds every backend to this contract.
 *
 * Records come back exactly as written: every string byte for byte (null and ''
 * kept apart), numbers as numbers, `customResponse` equal to the one written
 * (its headers in order, case and repeats as given). Ownership is checked by the
 * service against its in-memory table before a call; the repository scopes
 * `update` and `delete` by account as well, so a wrong id can never reach
 * another account's endpoint.
 */
export interface EndpointsRepository {
  /** Every endpoint of every account, in no particular order (the service indexes them by id at start). */
  all(): Promise<EndpointRecord[]>;

  /**
   * The endpoint `id` of any account, or undefined when there is none. Another
   * instance on the same database may have written it: a team server's
   * instances re-read an endpoint by id when told it changed, and on a receiver miss.
   */
  find(id: string): Promise<EndpointRecord | undefined>;

  /** Stores a new endpoint; its id is new (the service makes it). */
  insert(e: EndpointRecord): Promise<void>;

  /**
   * Writes every mutable column of the endpoint `e.id` owned by `e.accountId`:
   * name, description, secret, previousSecret, previousSecretExpiresAt,
   * signatureHeader, toleranceSeconds, forwardUrl, customResponse, isActive and
   * updatedAt. accountId, validationType and createdAt stay as inserted. When no
   * endpoint has that id in that account, nothing changes and nothing fails.
   */
  update(e: EndpointRecord): Promise<void>;

  /**
   * Sets previousSecret to null on the listed endpoints whose
   * previousSecretExpiresAt is at or before `expiredBy`; their expiry stays
   * (remediation dates the rotation by it). Unlisted endpoints, and listed ones
   * whose grace runs later (a regenerate rotated a secret out meanwhile), keep
   * theirs. Housekeeping across accounts: the ids come from the service's table.
   */
  erasePreviousSecrets(ids: string[], expiredBy: number): Promise<void>;

  /** Removes the endpoint `id` of `accountId`; another account's, or none, changes nothing and does not fail. */
  delete(accountId: string, id: string): Promise<void>;
}
