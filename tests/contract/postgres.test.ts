import assert from 'node:assert/strict';
import { PostgresAccountsRepository } from '../../server/storage/postgres/accounts-postgres.ts';
import { PostgresEndpointsRepository } from '../../server/storage/postgres/endpoints-postgres.ts';
import { runMigrations } from '../../server/storage/postgres/migration-runner.ts';
import { PostgresDatabase } from '../../server/storage/postgres/postgres-database.ts';
import { POSTGRES_MIGRATIONS } from '../../server/storage/postgres/postgres-migrations.ts';
import { PostgresRemediationRepository } from '../../server/storage/postgres/remediation-postgres.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { after, describe } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres, type FreshDatabase } from '../helpers/postgres.ts';
import { accountsContract } from './accounts-contract.ts';
import type { ContractHarness } from './contract-harness.ts';
import { endpointsContract } from './endpoints-contract.ts';
import { remediationContract } from './remediation-contract.ts';

/**
 * The contract suites against PostgreSQL: a real server (tests/helpers/postgres.ts),
 * a fresh database per test, migrated by the backend's own runner.
 */
after(stopTestPostgres);
const opened: { db: PostgresDatabase; database: FreshDatabase; errors: unknown[] }[] = [];

function harness<R>(repo: (db: PostgresDatabase) => R) {
  return {
    make: async () => {
      const database = await freshDatabase();
      const errors: unknown[] = [];
      const db = new PostgresDatabase({ url: database.url, onError: (e) => errors.push(e) });
      opened.push({ db, database, errors });
      await runMigrations(db, POSTGRES_MIGRATIONS, new ManualClock(1_700_000_000_000));
      return repo(db);
    },
    close: async () => {
      for (const { db, database, errors } of opened.splice(0)) {
        await db.close();
        // Checked before the drop: DROP ... WITH (FORCE) may still reach a connection the pool has just ended.
        const failed = [...errors];
        await database.drop();
        assert.deepEqual(failed, [], 'no pooled connection failed');
      }
    },
  } satisfies ContractHarness<R>;
}

describe('PostgreSQL', () => {
  accountsContract(
    harness((db) => ({
      repo: new PostgresAccountsRepository(db),
      stored: async (id: string) =>
        (
          await db.query<{ name: string; createdAt: number }>(
            'SELECT name, created_at AS "createdAt" FROM accounts WHERE id = $1',
            [id],
          )
        )[0],
    })),
  );
  endpointsContract(harness((db) => new PostgresEndpointsRepository(db)));
  remediationContract(harness((db) => new PostgresRemediationRepository(db)));
});
