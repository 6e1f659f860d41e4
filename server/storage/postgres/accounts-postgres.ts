import type { AccountsRepository } from '../../accounts/accounts-repository.ts';
import type { Sql } from './postgres-database.ts';

/** Accounts in PostgreSQL (tables: accounts-migrations.ts). */
export class PostgresAccountsRepository implements AccountsRepository {
  constructor(private readonly db: Sql) {}

  async insertIfMissing(id: string, name: string, createdAt: number): Promise<void> {
    // Two instances may create the same account at once: the loser's insert does nothing, and does not fail.
    await this.db.query('INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [
      id,
      name,
      createdAt,
    ]);
  }

  async allIds(): Promise<string[]> {
    return (await this.db.query<{ id: string }>('SELECT id FROM accounts')).map((r) => r.id);
  }
}
