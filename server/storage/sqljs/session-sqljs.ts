import type { SessionRecord, SessionRepository } from '../../session/session-repository.ts';
import type { Store, WriteOp } from '../../store/store-types.ts';
import { SESSION_COLUMNS, sessionFromRow, sessionValues, type SessionRow } from '../rows/session-row.ts';

const deleteOne = (idHash: string): WriteOp => ({ sql: 'DELETE FROM sessions WHERE id_hash = ?', params: [idHash] });

/** UI sessions in the embedded sql.js store (the session feature's sql.js migrations create the table). */
export class SqljsSessionRepository implements SessionRepository {
  constructor(private readonly store: Store) {}

  async insert(s: SessionRecord, replaced: readonly string[], now: number): Promise<void> {
    // One record: the store applies it whole or not at all.
    await this.store.write([
      { sql: 'DELETE FROM sessions WHERE expires_at <= ?', params: [now] },
      ...replaced.map(deleteOne),
      {
        sql: `INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?)`,
        params: [...sessionValues(s)],
      },
    ]);
  }

  async find(idHash: string): Promise<SessionRecord | undefined> {
    const r = await this.store.get<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id_hash = ?`, [idHash]);
    return r ? sessionFromRow(r) : undefined;
  }

  async delete(idHashes: readonly string[]): Promise<void> {
    if (idHashes.length > 0) await this.store.write(idHashes.map(deleteOne));
  }
}
