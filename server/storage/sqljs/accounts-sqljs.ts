import type { AccountsRepository } from '../../accounts/accounts-repository.ts';
import type { Store } from '../../store/store-types.ts';

/** Accounts in the embedded sql.js store (the accounts feature's sql.js migrations create the table). */
export class SqljsAccountsRepository implements AccountsRepository {
  constructor(private readonly store: Store) {}

  async insertIfMissing(id: string, name: string, createdAt: number): Promise<void> {
    await this.store.write([
      { sql: 'INSERT OR IGNORE INTO accounts (id, name, created_at) VALUES (?, ?, ?)', params: [id, name, createdAt] },
    ]);
  }

  async allIds(): Promise<string[]> {
    const rows = await this.store.all<{ id: string }>('SELECT id FROM accounts');
    return rows.map((r) => r.id);
  }
}
