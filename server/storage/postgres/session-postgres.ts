import type { SessionRecord, SessionRepository } from '../../session/session-repository.ts';
import { SESSION_COLUMNS, sessionFromRow, sessionValues, type SessionRow } from '../rows/session-row.ts';
import type { PostgresDatabase } from './postgres-database.ts';

/** UI sessions in PostgreSQL (tables: session-migrations.ts). */
export class PostgresSessionRepository implements SessionRepository {
  constructor(private readonly db: PostgresDatabase) {}

  async insert(s: SessionRecord, replaced: readonly string[], now: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      // SKIP LOCKED: an expired row another instance is pruning (or signing out) right now is left to it;
      // two sign-ins locking the same expired rows in different orders would otherwise deadlock.
      await tx.query(
        `DELETE FROM sessions WHERE id_hash IN
           (SELECT id_hash FROM sessions WHERE expires_at <= $1 FOR UPDATE SKIP LOCKED)`,
        [now],
      );
      await tx.query('DELETE FROM sessions WHERE id_hash = ANY($1)', [replaced]);
      await tx.query(`INSERT INTO sessions (${SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5)`, [...sessionValues(s)]);
    });
  }

  async find(idHash: string): Promise<SessionRecord | undefined> {
    const [row] = await this.db.query<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id_hash = $1`, [
      idHash,
    ]);
    return row ? sessionFromRow(row) : undefined;
  }

  async delete(idHashes: readonly string[]): Promise<void> {
    if (idHashes.length > 0) await this.db.query('DELETE FROM sessions WHERE id_hash = ANY($1)', [idHashes]);
  }
}
