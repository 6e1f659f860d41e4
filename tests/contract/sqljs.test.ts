import { accountsMigrations } from '../../server/accounts/accounts-migrations.ts';
import { endpointsMigrations } from '../../server/endpoints/endpoints-migrations.ts';
import { logsMigrations } from '../../server/logs/logs-migrations.ts';
import { metricsMigrations } from '../../server/metrics/metrics-migrations.ts';
import { remediationMigrations } from '../../server/remediation/remediation-migrations.ts';
import { replayMigrations } from '../../server/replay/replay-migrations.ts';
import { sessionMigrations } from '../../server/session/session-migrations.ts';
import { shareMigrations } from '../../server/share/share-migrations.ts';
import { SqljsAccountsRepository } from '../../server/storage/sqljs/accounts-sqljs.ts';
import { SqljsEndpointsRepository } from '../../server/storage/sqljs/endpoints-sqljs.ts';
import { SqljsForwardQueueRepository } from '../../server/storage/sqljs/forward-queue-sqljs.ts';
import { SqljsLogsRepository } from '../../server/storage/sqljs/logs-sqljs.ts';
import { SqljsMetricsRepository } from '../../server/storage/sqljs/metrics-sqljs.ts';
import { SqljsRemediationRepository } from '../../server/storage/sqljs/remediation-sqljs.ts';
import { SqljsReplayRepository } from '../../server/storage/sqljs/replay-sqljs.ts';
import { SqljsSessionRepository } from '../../server/storage/sqljs/session-sqljs.ts';
import { SqljsShareRepository } from '../../server/storage/sqljs/share-sqljs.ts';
import { SqljsStore } from '../../server/store/sqljs-store.ts';
import { describe } from '../helpers/node-test.ts';
import { tempDirs } from '../helpers/temp-dir.ts';
import { accountsContract } from './accounts-contract.ts';
import type { ContractHarness } from './contract-harness.ts';
import { endpointsContract } from './endpoints-contract.ts';
import { logsContract } from './logs-contract.ts';
import { metricsContract } from './metrics-contract.ts';
import { remediationContract } from './remediation-contract.ts';
import { replayContract } from './replay-contract.ts';
import { deleteLogsSqljs, seedLogSqljs, type SeedLog } from '../helpers/seed-log.ts';
import { sessionContract } from './session-contract.ts';
import { signInCodesContract } from './sign-in-codes-contract.ts';
import { MemorySignInCodeRepository } from '../../server/session/memory-sign-in-codes.ts';
import { shareContract } from './share-contract.ts';

/** The contract suites against the embedded backend: a real sql.js store in a temp dir per test. */
const tempDir = tempDirs('hookscope-contract-');
const opened: SqljsStore[] = [];

/** A store holding the given features' tables, as the engine opens it. */
function harness<R>(features: Parameters<typeof SqljsStore.open>[0]['migrations'], repo: (s: SqljsStore) => R) {
  return {
    make: async () => {
      const store = await SqljsStore.open({ dir: await tempDir(), migrations: features });
      opened.push(store);
      return repo(store);
    },
    close: async () => {
      for (const store of opened.splice(0)) await store.close();
    },
  } satisfies ContractHarness<R>;
}

describe('sql.js', () => {
  accountsContract(
    harness([{ feature: 'accounts', migrations: accountsMigrations }], (s) => ({
      repo: new SqljsAccountsRepository(s),
      stored: (id: string) =>
        s.get<{ name: string; createdAt: number }>('SELECT name, created_at AS createdAt FROM accounts WHERE id = ?', [
          id,
        ]),
    })),
  );
  endpointsContract(
    harness([{ feature: 'endpoints', migrations: endpointsMigrations }], (s) => new SqljsEndpointsRepository(s)),
  );
  logsContract((retention) =>
    harness([{ feature: 'logs', migrations: logsMigrations }], (s) => {
      const count = async (table: string) =>
        Number((await s.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))?.n);
      return {
        repo: new SqljsLogsRepository(s, retention),
        // Reads come after every write acknowledged before them: the worker has applied those (and their retention).
        settle: async () => void (await s.get('SELECT 1')),
        stored: async () => ({ bodies: await count('log_bodies'), customAnswers: await count('log_custom_answers') }),
      };
    }),
  );
  remediationContract(
    harness(
      // The logs feature's too: remediation's sql.js migrations put a trigger on its table.
      [
        { feature: 'logs', migrations: logsMigrations },
        { feature: 'remediation', migrations: remediationMigrations },
      ],
      (s) => ({
        repo: new SqljsRemediationRepository(s),
        seedLog: (log: SeedLog) => seedLogSqljs(s, log),
        deleteLogs: (ids: readonly string[]) => deleteLogsSqljs(s, ids),
      }),
    ),
  );
  shareContract(
    harness(
      // The logs feature's too: share's sql.js trigger shares_follow_logs is on its table.
      [
        { feature: 'logs', migrations: logsMigrations },
        { feature: 'share', migrations: shareMigrations },
      ],
      (s) => ({
        repo: new SqljsShareRepository(s),
        seedLog: (log) => seedLogSqljs(s, log),
        deleteLogs: (ids) => deleteLogsSqljs(s, ids),
      }),
    ),
  );
  replayContract(
    harness(
      // The logs feature's too: replay's sql.js trigger replays_follow_logs is on its table.
      [
        { feature: 'logs', migrations: logsMigrations },
        { feature: 'replay', migrations: replayMigrations },
      ],
      (s) => ({
        replays: new SqljsReplayRepository(s),
        queue: new SqljsForwardQueueRepository(s),
        seedLog: (log) => seedLogSqljs(s, log),
        deleteLogs: (ids) => deleteLogsSqljs(s, ids),
        leasedLanes: false,
      }),
    ),
  );
  sessionContract(
    harness([{ feature: 'session', migrations: sessionMigrations }], (s) => new SqljsSessionRepository(s)),
  );
  metricsContract(
    harness([{ feature: 'metrics', migrations: metricsMigrations }], (s) => new SqljsMetricsRepository(s)),
  );
  // The embedded backend keeps sign-in codes in memory (one process): its "other instance" is the same repository.
  signInCodesContract({
    make: async () => {
      const repo = new MemorySignInCodeRepository();
      return { repo, peer: repo };
    },
    close: async () => {},
  });
});
