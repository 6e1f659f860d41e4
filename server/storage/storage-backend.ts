import type { AccountsRepository } from '../accounts/accounts-repository.ts';
import type { EndpointsRepository } from '../endpoints/endpoints-repository.ts';
import type { EventTransport } from '../events/event-transport.ts';
import type { InstanceRegistry } from '../instances/instance-registry.ts';
import type { BackgroundWork } from '../logs/logs-feature.ts';
import type { LogsRepository } from '../logs/logs-repository.ts';
import type { MetricsRepository } from '../metrics/metrics-repository.ts';
import type { RemediationRepository } from '../remediation/remediation-repository.ts';
import type { ForwardQueueRepository } from '../replay/forward-queue-repository.ts';
import type { ReplayRepository } from '../replay/replay-repository.ts';
import type { SessionRepository } from '../session/session-repository.ts';
import type { SignInCodeRepository } from '../session/sign-in-code-repository.ts';
import type { ShareRepository } from '../share/share-repository.ts';
import type { SharedSettingsRepository } from '../settings/shared-settings-repository.ts';
import type { FeatureMigrations } from '../store/store-types.ts';

/** Every repository the features are given, from one backend. */
export interface Repositories {
  accounts: AccountsRepository;
  sessions: SessionRepository;
  signInCodes: SignInCodeRepository;
  endpoints: EndpointsRepository;
  logs: LogsRepository;
  replays: ReplayRepository;
  forwardQueue: ForwardQueueRepository;
  shares: ShareRepository;
  remediation: RemediationRepository;
  metrics: MetricsRepository;
}

/**
 * Where the engine keeps its data: the embedded sql.js store in the data
 * directory (sqljs/sqljs-backend.ts, the default) or a team server's PostgreSQL
 * (postgres/postgres-backend.ts). The engine builds one, hands its repositories
 * to the features, opens it once every feature is built, and closes it last.
 */
export interface StorageBackend {
  /** What the engine log and the banner name. */
  readonly description: string;
  readonly repos: Repositories;
  /** Work beside the logs repository while the engine runs (sql.js: the search index backfill). */
  readonly logsBackground?: BackgroundWork;
  /** Where Settings saves so every instance follows (PostgreSQL). None: config.json, as embedded. */
  readonly sharedSettings?: SharedSettingsRepository;
  /**
   * How live events reach every engine on this store (PostgreSQL: an events
   * table and LISTEN/NOTIFY, started at `open`). None: in process, as embedded.
   */
  readonly events?: EventTransport;
  /**
   * The engines on this store, counted by heartbeats (PostgreSQL: the
   * `instances` table, registered at `open`, removed at `close`). None: this
   * engine alone, as embedded.
   */
  readonly instances?: InstanceRegistry;
  /**
   * Brings the schema up to date. sql.js: the features' own migrations, which
   * they declare (`Feature.migrations`); PostgreSQL applies its list
   * (postgres/postgres-migrations.ts) under an advisory lock and ignores these.
   */
  open(sqljsMigrations: readonly FeatureMigrations[]): Promise<void>;
  /** The key that signs API tokens (after `open`). */
  signingKey(): Promise<Uint8Array>;
  /**
   * Runs `task` now and then while the engine runs: before every snapshot of the
   * embedded store; once a minute with PostgreSQL. A task's failure is reported
   * and the next round runs.
   */
  housekeeping(task: () => Promise<unknown>): void;
  /** sql.js: snapshot the store now. PostgreSQL: nothing (every write is committed). */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
}
