import { mirrorSigningKey } from '../../auth/signing-key.ts';
import { DEFAULT_CONFIG, type EngineConfig } from '../../config/config.ts';
import { describeDatabaseUrl } from '../../config/database-config.ts';
import type { RetentionPolicy } from '../../logs/logs-repository.ts';
import type { Clock } from '../../support/clock.ts';
import type { Random } from '../../support/random.ts';
import type { StorageBackend } from '../storage-backend.ts';
import { PostgresAccountsRepository } from './accounts-postgres.ts';
import { PostgresEndpointsRepository } from './endpoints-postgres.ts';
import { PostgresEventTransport, type PostgresEventsOptions } from './events-postgres.ts';
import { PostgresForwardQueueRepository } from './forward-queue-postgres.ts';
import { inHousekeepingLock } from './housekeeping-lock.ts';
import { PostgresInstanceRegistry } from './instances-postgres.ts';
import { PostgresLogsRepository } from './logs-postgres.ts';
import { PostgresMetricsRepository } from './metrics-postgres.ts';
import { runMigrations } from './migration-runner.ts';
import { PostgresDatabase } from './postgres-database.ts';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.ts';
import { PostgresRemediationRepository } from './remediation-postgres.ts';
import { PostgresReplayRepository } from './replay-postgres.ts';
import { PostgresSessionRepository } from './session-postgres.ts';
import { PostgresSettingsRepository } from './settings-postgres.ts';
import { PostgresShareRepository } from './share-postgres.ts';
import { PostgresSignInCodeRepository } from './sign-in-codes-postgres.ts';
import { loadOrCreatePostgresSigningKey } from './signing-key-postgres.ts';

/**
 * The first connection, made before anything else so that a wrong URL, a server that
 * is down or refuses the user, or a database that does not exist stops start-up with
 * a sentence naming the database (its password hidden) instead of a bare socket error.
 */
async function reachable(db: PostgresDatabase, url: string): Promise<void> {
  try {
    await db.query('SELECT 1');
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(
      `Could not reach the database at ${describeDatabaseUrl(url)}: ${why}. Check --database ` +
        '(or HOOKSCOPE_DATABASE_URL, or database.url in config.json) and that PostgreSQL is running there.',
      { cause: e },
    );
  }
}

/**
 * Text (headers, queries, search terms) is stored and compared as UTF-8, and the search's
 * exact check reads bodies as LATIN1 converted to the database's encoding (log-search-sql.ts),
 * which only UTF-8 holds for every byte: another encoding would fail on the first such
 * delivery, so it stops start-up instead, before anything is written.
 */
async function utf8Database(db: PostgresDatabase, url: string): Promise<void> {
  const [row] = await db.query<{ encoding: string }>(
    'SELECT pg_encoding_to_char(encoding) AS encoding FROM pg_database WHERE datname = current_database()',
  );
  if (row?.encoding === 'UTF8') return;
  throw new Error(
    `The database at ${describeDatabaseUrl(url)} uses the ${row?.encoding ?? 'unknown'} encoding; Hookscope needs UTF8. ` +
      'Create it with `createdb --encoding=UTF8 --template=template0 <name>` and start again.',
  );
}

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
  /** Timings of the live events' LISTEN connection, poll and gap grace (tests shorten them). */
  events?: Pick<PostgresEventsOptions, 'pollMs' | 'gapGraceMs' | 'reconnectMinMs' | 'reconnectMaxMs' | 'keepMs'>;
  /** This instance's heartbeat in `instances` and how long a silent one still counts (default: EngineConfig's). */
  instances?: EngineConfig['instances'];
}

/**
 * A team server's backend: every repository in one PostgreSQL database, which
 * every instance given the same URL shares; the schema is migrated at open.
 */
export function postgresBackend(options: PostgresBackendOptions): StorageBackend {
  const db = new PostgresDatabase({ url: options.url, onError: options.onError });
  const events = new PostgresEventTransport({
    ...options.events,
    db,
    url: options.url,
    clock: options.clock,
    onError: options.onError,
  });
  const instances = new PostgresInstanceRegistry({
    db,
    clock: options.clock,
    id: `inst_${options.random.bytes(12).toString('hex')}`,
    ...(options.instances ?? DEFAULT_CONFIG.instances),
    onError: options.onError,
  });
  // Events older than an hour are pruned; a resume from before then gets what is kept.
  const tasks: (() => Promise<unknown>)[] = [() => events.prune(), () => instances.prune()];
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> = Promise.resolve();
  // One instance at a time runs a round (the sweeps are database-wide); a failure to lock is reported like a task's.
  const runTasks = (): Promise<void> =>
    inHousekeepingLock(db, async () => {
      for (const task of tasks) await task().catch(options.onError);
    }).then(() => undefined, options.onError);
  return {
    description: `PostgreSQL at ${describeDatabaseUrl(options.url)}`,
    repos: {
      accounts: new PostgresAccountsRepository(db),
      sessions: new PostgresSessionRepository(db),
      signInCodes: new PostgresSignInCodeRepository(db),
      endpoints: new PostgresEndpointsRepository(db),
      logs: new PostgresLogsRepository(db, options.retention),
      replays: new PostgresReplayRepository(db),
      forwardQueue: new PostgresForwardQueueRepository(db),
      shares: new PostgresShareRepository(db),
      remediation: new PostgresRemediationRepository(db),
      metrics: new PostgresMetricsRepository(db),
    },
    events,
    sharedSettings: new PostgresSettingsRepository(
      db,
      `the settings table of PostgreSQL at ${describeDatabaseUrl(options.url)}`,
    ),
    instances,
    open: async () => {
      await reachable(db, options.url);
      await utf8Database(db, options.url);
      await runMigrations(db, POSTGRES_MIGRATIONS, options.clock);
      await events.start();
      await instances.start();
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
      // First, so the other instances take back this one's share of the rate limit at their next beat.
      await instances.stop().catch(options.onError);
      if (timer) clearInterval(timer);
      await round;
      await events.close();
      await db.close();
    },
  };
}
