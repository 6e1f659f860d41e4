import assert from 'node:assert/strict';
import { PostgresAccountsRepository } from '../../server/storage/postgres/accounts-postgres.ts';
import { PostgresEndpointsRepository } from '../../server/storage/postgres/endpoints-postgres.ts';
import { PostgresForwardQueueRepository } from '../../server/storage/postgres/forward-queue-postgres.ts';
import { PostgresLogsRepository } from '../../server/storage/postgres/logs-postgres.ts';
import { PostgresMetricsRepository } from '../../server/storage/postgres/metrics-postgres.ts';
import { runMigrations } from '../../server/storage/postgres/migration-runner.ts';
import { PostgresDatabase } from '../../server/storage/postgres/postgres-database.ts';
import { POSTGRES_MIGRATIONS } from '../../server/storage/postgres/postgres-migrations.ts';
import { PostgresRemediationRepository } from '../../server/storage/postgres/remediation-postgres.ts';
import { PostgresReplayRepository } from '../../server/storage/postgres/replay-postgres.ts';
import { PostgresSessionRepository } from '../../server/storage/postgres/session-postgres.ts';
import { PostgresShareRepository } from '../../server/storage/postgres/share-postgres.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { after, describe } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres, type FreshDatabase } from '../helpers/postgres.ts';
import { accountsContract } from './accounts-contract.ts';
import type { ContractHarness } from './contract-harness.ts';
import { endpointsContract } from './endpoints-contract.ts';
import { logsContract } from './logs-contract.ts';
import { metricsContract } from './metrics-contract.ts';
import { remediationContract } from './remediation-contract.ts';
import { replayContract } from './replay-contract.ts';
import { deleteLogsPostgres, seedLogPostgres } from '../helpers/seed-log.ts';
import { sessionContract } from './session-contract.ts';
import { signInCodesContract, type SignInCodesUnderTest } from './sign-in-codes-contract.ts';
import { PostgresSignInCodeRepository } from '../../server/storage/postgres/sign-in-codes-postgres.ts';
import { shareContract } from './share-contract.ts';

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
  logsContract((retention) =>
    harness((db) => {
      const count = async (table: string) =>
        (await db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))[0]!.n;
      return {
        repo: new PostgresLogsRepository(db, retention),
        // Inserts resolve after COMMIT, retention included: nothing is left to wait for.
        settle: async () => {},
        stored: async () => ({ bodies: await count('log_bodies'), customAnswers: await count('log_custom_answers') }),
      };
    }),
  );
  remediationContract(
    harness((db) => ({
      repo: new PostgresRemediationRepository(db),
      seedLog: (log) => seedLogPostgres(db, log),
      deleteLogs: (ids) => deleteLogsPostgres(db, ids),
    })),
  );
  shareContract(
    harness((db) => ({
      repo: new PostgresShareRepository(db),
      seedLog: (log) => seedLogPostgres(db, log),
      deleteLogs: (ids) => deleteLogsPostgres(db, ids),
    })),
  );
  replayContract(
    harness((db) => ({
      replays: new PostgresReplayRepository(db),
      queue: new PostgresForwardQueueRepository(db),
      seedLog: (log) => seedLogPostgres(db, log),
      deleteLogs: (ids) => deleteLogsPostgres(db, ids),
      leasedLanes: true,
    })),
  );
  sessionContract(harness((db) => new PostgresSessionRepository(db)));
  metricsContract(harness((db) => new PostgresMetricsRepository(db)));
  signInCodesContract(signInCodesHarness());
});

/** Two pools on one fresh database: two instances' sign-in codes. */
function signInCodesHarness() {
  const pools: PostgresDatabase[] = [];
  // A fresh array per test: a connection the previous test's DROP ... WITH (FORCE) reached after its
  // pool had ended reports into that test's array, never into this one's.
  let errors: unknown[] = [];
  let database: FreshDatabase | undefined;
  return {
    make: async () => {
      database = await freshDatabase();
      const mine: unknown[] = [];
      errors = mine;
      for (let i = 0; i < 2; i++) pools.push(new PostgresDatabase({ url: database.url, onError: (e) => mine.push(e) }));
      await runMigrations(pools[0]!, POSTGRES_MIGRATIONS, new ManualClock(1_700_000_000_000));
      return { repo: new PostgresSignInCodeRepository(pools[0]!), peer: new PostgresSignInCodeRepository(pools[1]!) };
    },
    close: async () => {
      for (const db of pools.splice(0)) await db.close();
      const failed = errors.splice(0);
      await database?.drop();
      assert.deepEqual(failed, [], 'no pooled connection failed');
    },
  } satisfies ContractHarness<SignInCodesUnderTest>;
}
