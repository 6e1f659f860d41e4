import type { EngineConfig } from '../config/config.ts';
import type { RetentionPolicy } from '../logs/logs-repository.ts';
import type { StorageBackend } from '../storage/storage-backend.ts';
import { sqljsBackend } from '../storage/sqljs/sqljs-backend.ts';
import type { Clock } from '../support/clock.ts';
import type { Logger } from '../support/logger.ts';
import type { Random } from '../support/random.ts';

export interface BackendDeps {
  clock: Clock;
  random: Random;
  onError: (err: unknown) => void;
  logger: Logger;
  retention: () => RetentionPolicy;
}

/**
 * The backend the configuration names: PostgreSQL with `--database` (a team
 * server), else the embedded sql.js store. node-postgres is loaded only then,
 * so the desktop app never pays for it.
 */
export async function buildBackend(config: EngineConfig, deps: BackendDeps): Promise<StorageBackend> {
  if (config.databaseUrl !== null) {
    const { postgresBackend } = await import('../storage/postgres/postgres-backend.ts');
    return postgresBackend({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      instances: config.instances,
      ...deps,
    });
  }
  return sqljsBackend({
    dataDir: config.dataDir,
    retention: deps.retention,
    random: deps.random,
    onError: deps.onError,
    store: {
      sync: config.durability.sync,
      syncIntervalMs: config.durability.syncIntervalMs,
      checkpointBytes: config.durability.checkpointBytes,
      checkpointIntervalMs: config.durability.checkpointIntervalMs,
      onCheckpoint: (r) => deps.logger.info({ bytes: r.bytes, ms: r.ms, lastSeq: r.lastSeq }, 'checkpoint'),
      onLoad: (r) =>
        deps.logger.info(
          {
            lastSeq: r.lastSeq,
            replayed: r.replayed,
            tornBytes: r.tornBytes,
            blobBytesCut: r.blobBytesCut,
            compactedBytes: r.compactedBytes,
          },
          'store loaded',
        ),
      clock: deps.clock,
      onError: deps.onError,
    },
  });
}
