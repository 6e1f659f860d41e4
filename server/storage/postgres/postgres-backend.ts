import { mirrorSigningKey } from '../../auth/signing-key.ts';
import { describeDatabaseUrl } from '../../config/database-config.ts';
import type { RetentionPolicy } from '../../logs/logs-repository.ts';
import type { Clock } from '../../support/clock.ts';
import type { Random } from '../../support/random.ts';
import type { StorageBackend } from '../storage-backend.ts';
import { PostgresAccountsRepository } from './accounts-postgres.ts';
import { PostgresEndpointsRepository } from './endpoints-postgres.ts';
import { PostgresForwardQueueRepository } from './forward-queue-postgres.ts';
import { PostgresLogsRepository } from './logs-postgres.ts';
import { PostgresMetricsRepository } from './metrics-postgres.ts';
import { runMigrations } from './migration-runner.ts';
import { PostgresDatabase } from './postgres-database.ts';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.ts';
import { PostgresRemediationRepository } from './remediation-postgres.ts';
import { PostgresReplayRepository } from './replay-postgres.ts';
import { PostgresSessionRepository } from './session-postgres.ts';
import { PostgresShareRepository } from './share-postgres.ts';
import { loadOrCreatePostgresSigningKey } from './signing-key-postgres.ts';

/** How often housekeeping runs with PostgreSQL, where there are no snapshots to run it before. */
const HOUSEKEEPING_INTERVAL_MS = 60_000;

export interface PostgresBackendOptions {
  url: string;
  /** The instance's own directory: the signing key is mirrored there for the CLI (see mirrorSigningKey). */
  dataDir: string;
  retention: () => RetentionPolicy;
  clock: Clock;
  random: Random;
  onError: (err: unknown) => void;
  housekeepingIntervalMs?: number;
}

/**
 * A team server's backend: every repository in one PostgreSQL database, which
 * every instance given the same URL shares; the schema is migrated at open.
 */
export function postgresBackend(options: PostgresBackendOptions): StorageBackend {
  const db = new PostgresDatabase({ url: options.url, onError: options.onError });
  const tasks: (() => Promise<unknown>)[] = [];
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> = Promise.resolve();
  const runTasks = async (): Promise<void> => {
    for (const task of tasks) await task().catch(options.onError);
  };
  return {
    description: `PostgreSQL at ${describeDatabaseUrl(options.url)}`,
    repos: {
      accounts: new PostgresAccountsRepository(db),
      sessions: new PostgresSessionRepository(db),
      endpoints: new PostgresEndpointsRepository(db),
      logs: new PostgresLogsRepository(db, options.retention),
      replays: new PostgresReplayRepository(db),
      forwardQueue: new PostgresForwardQueueRepository(db),
      shares: new PostgresShareRepository(db),
      remediation: new PostgresRemediationRepository(db),
      metrics: new PostgresMetricsRepository(db),
    },
    open: async () => {
      await runMigrations(db, POSTGRES_MIGRATIONS, options.clock);
      // A round never overlaps the one before: the next starts after it.
      timer = setInterval(() => {
        round = round.then(runTasks);
      }, options.housekeepingIntervalMs ?? HOUSEKEEPING_INTERVAL_MS);
      timer.unref();
    },
    signingKey: async () => {
      const key = await loadOrCreatePostgresSigningKey(db, options.random, options.clock);
      await mirrorSigningKey(options.dataDir, key);
      return key;
    },
    housekeeping: (task) => void tasks.push(task),
    checkpoint: async () => {},
    close: async () => {
      if (timer) clearInterval(timer);
      await round;
      await db.close();
    },
  };
}
