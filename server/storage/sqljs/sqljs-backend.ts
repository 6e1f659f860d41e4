import { join } from 'node:path';
import { loadOrCreateSigningKey } from '../../auth/signing-key.ts';
import type { RetentionPolicy } from '../../logs/logs-repository.ts';
import { MemorySignInCodeRepository } from '../../session/memory-sign-in-codes.ts';
import { SqljsStore, type SqljsStoreOptions } from '../../store/sqljs-store.ts';
import type { Random } from '../../support/random.ts';
import type { StorageBackend } from '../storage-backend.ts';
import { SqljsAccountsRepository } from './accounts-sqljs.ts';
import { SqljsEndpointsRepository } from './endpoints-sqljs.ts';
import { SqljsForwardQueueRepository } from './forward-queue-sqljs.ts';
import { storedBodies } from './log-search-sqljs.ts';
import { SqljsLogsRepository } from './logs-sqljs.ts';
import { SqljsMetricsRepository } from './metrics-sqljs.ts';
import { SqljsRemediationRepository } from './remediation-sqljs.ts';
import { SqljsReplayRepository } from './replay-sqljs.ts';
import { SearchBackfill } from './search-backfill.ts';
import { SqljsSessionRepository } from './session-sqljs.ts';
import { SqljsShareRepository } from './share-sqljs.ts';

export interface SqljsBackendOptions {
  dataDir: string;
  /** The store's durability and checkpoint settings, clock and fault reporting. */
  store: Omit<SqljsStoreOptions, 'dir'>;
  /** The current retention budgets, read at each insert (Settings changes them live). */
  retention: () => RetentionPolicy;
  random: Random;
  onError: (err: unknown) => void;
}

/**
 * The embedded backend: one sql.js store in `<dataDir>/store` (journal, blob
 * files, snapshots) and the signing key in `<dataDir>/signing-key`. Nothing
 * leaves the machine.
 */
export function sqljsBackend(options: SqljsBackendOptions): StorageBackend {
  const store = new SqljsStore({ ...options.store, dir: join(options.dataDir, 'store') });
  const searchIndex = new SearchBackfill(store, storedBodies(store), options.onError);
  return {
    description: `embedded store in ${join(options.dataDir, 'store')}`,
    repos: {
      accounts: new SqljsAccountsRepository(store),
      sessions: new SqljsSessionRepository(store),
      // In memory: one process, and a code should not outlive it in any file.
      signInCodes: new MemorySignInCodeRepository(),
      endpoints: new SqljsEndpointsRepository(store),
      logs: new SqljsLogsRepository(store, options.retention, () => searchIndex.noteDelivery()),
      replays: new SqljsReplayRepository(store),
      forwardQueue: new SqljsForwardQueueRepository(store),
      shares: new SqljsShareRepository(store),
      remediation: new SqljsRemediationRepository(store),
      metrics: new SqljsMetricsRepository(store),
    },
    // The search index is written in the background: each log stored, and those stored before it existed.
    logsBackground: searchIndex,
    open: (migrations) => store.load(migrations),
    signingKey: () => loadOrCreateSigningKey(options.dataDir, options.random),
    // Before every snapshot, so that what a task erases is in no snapshot.
    housekeeping: (task) => store.beforeCheckpoint(task),
    checkpoint: async () => {
      await store.checkpoint();
    },
    close: () => store.close(),
  };
}
