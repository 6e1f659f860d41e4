import type { PostgresDatabase } from '../../server/storage/postgres/postgres-database.ts';
import type { Store } from '../../server/store/store-types.ts';

/** What a feature that follows logs (replays, shares, analyses, queued forwards) needs of one: it exists. */
export interface SeedLog {
  id: string;
  accountId: string;
  endpointId: string;
}

/**
 * Inserts a minimal log row straight into the `logs` table, for contract suites of
 * repositories whose rows follow a log (and, in PostgreSQL, reference it): they
 * need a log to exist without depending on LogsRepository. Keep the column list in
 * step with both backends' logs migrations.
 */
const COLUMNS = `id, account_id, endpoint_id, method, path, query, raw_headers, size, stored_size, truncated,
  received_at, duration_ms, status, verification`;

export async function seedLogSqljs(store: Store, log: SeedLog): Promise<void> {
  await store.write([
    {
      sql: `INSERT INTO logs (${COLUMNS}) VALUES (?, ?, ?, 'POST', '/', '{}', '[]', 0, 0, 0, 0, 0, 'success', '{}')`,
      params: [log.id, log.accountId, log.endpointId],
    },
  ]);
}

export async function seedLogPostgres(db: PostgresDatabase, log: SeedLog): Promise<void> {
  await db.query(
    `INSERT INTO logs (${COLUMNS}) VALUES ($1, $2, $3, 'POST', '/', '{}', '[]', 0, 0, false, 0, 0, 'success', '{}')`,
    [log.id, log.accountId, log.endpointId],
  );
}

/** Deletes logs by id straight from the table, as retention or a user's delete would (what follows them must go). */
export async function deleteLogsSqljs(store: Store, ids: readonly string[]): Promise<void> {
  await store.write(ids.map((id) => ({ sql: 'DELETE FROM logs WHERE id = ?', params: [id] })));
}

export async function deleteLogsPostgres(db: PostgresDatabase, ids: readonly string[]): Promise<void> {
  await db.query('DELETE FROM logs WHERE id = ANY($1)', [ids]);
}
