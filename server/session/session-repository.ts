import type { Store, WriteOp } from '../store/store-types.ts';

/** One UI session as the store keeps it: the hash of its id, never the id. */
export interface SessionRecord {
  idHash: string;
  accountId: string;
  accountName: string;
  createdAt: number;
  expiresAt: number;
}

interface SessionRow {
  id_hash: string;
  account_id: string;
  account_name: string;
  created_at: number;
  expires_at: number;
}

const deleteOne = (idHash: string): WriteOp => ({ sql: 'DELETE FROM sessions WHERE id_hash = ?', params: [idHash] });

export class SessionRepository {
  constructor(private readonly store: Store) {}

  /** Adds a session, ending `replaced` and pruning the expired ones in the same write. */
  async insert(s: SessionRecord, replaced: readonly string[], now: number): Promise<void> {
    await this.store.write([
      { sql: 'DELETE FROM sessions WHERE expires_at <= ?', params: [now] },
      ...replaced.map(deleteOne),
      {
        sql: `INSERT INTO sessions (id_hash, account_id, account_name, created_at, expires_at)
              VALUES (?, ?, ?, ?, ?)`,
        params: [s.idHash, s.accountId, s.accountName, s.createdAt, s.expiresAt],
      },
    ]);
  }

  async find(idHash: string): Promise<SessionRecord | undefined> {
    const r = await this.store.get<SessionRow>('SELECT * FROM sessions WHERE id_hash = ?', [idHash]);
    return r
      ? {
          idHash: r.id_hash,
          accountId: r.account_id,
          accountName: r.account_name,
          createdAt: r.created_at,
          expiresAt: r.expires_at,
        }
      : undefined;
  }

  async delete(idHashes: readonly string[]): Promise<void> {
    if (idHashes.length > 0) await this.store.write(idHashes.map(deleteOne));
  }
}
