import type { AccountContext } from '../../auth/account-context.ts';
import type { SignInCodeRecord, SignInCodeRepository } from '../../session/sign-in-code-repository.ts';
import type { PostgresDatabase } from './postgres-database.ts';

interface AccountRow {
  id: string;
  name: string;
}

/** Sign-in codes in PostgreSQL (table: sign-in-codes-migrations.ts), shared by every instance. */
export class PostgresSignInCodeRepository implements SignInCodeRepository {
  constructor(private readonly db: PostgresDatabase) {}

  async insert(code: SignInCodeRecord, now: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      // SKIP LOCKED: an expired code another instance is pruning or taking right now is left to it.
      await tx.query(
        `DELETE FROM sign_in_codes WHERE code_hash IN
           (SELECT code_hash FROM sign_in_codes WHERE expires_at <= $1 FOR UPDATE SKIP LOCKED)`,
        [now],
      );
      await tx.query(
        'INSERT INTO sign_in_codes (code_hash, account_id, account_name, expires_at) VALUES ($1, $2, $3, $4)',
        [code.codeHash, code.accountId, code.accountName, code.expiresAt],
      );
    });
  }

  async find(codeHash: string, now: number): Promise<AccountContext | undefined> {
    const [row] = await this.db.query<AccountRow>(
      'SELECT account_id AS id, account_name AS name FROM sign_in_codes WHERE code_hash = $1 AND expires_at > $2',
      [codeHash, now],
    );
    return row ? { id: row.id, name: row.name } : undefined;
  }

  async take(codeHash: string, now: number): Promise<AccountContext | undefined> {
    // One statement: of two instances deleting the same row at once, the second finds it gone and gets no row.
    const [row] = await this.db.query<AccountRow & { expiresAt: number }>(
      'DELETE FROM sign_in_codes WHERE code_hash = $1 RETURNING account_id AS id, account_name AS name, expires_at AS "expiresAt"',
      [codeHash],
    );
    return row && row.expiresAt > now ? { id: row.id, name: row.name } : undefined;
  }
}
