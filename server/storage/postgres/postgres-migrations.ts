import { accountsMigrations } from './accounts-migrations.ts';
import { authMigrations } from './auth-migrations.ts';
import { endpointsMigrations } from './endpoints-migrations.ts';
import { eventsMigrations } from './events-migrations.ts';
import { instancesMigrations } from './instances-migrations.ts';
import { logsMigrations } from './logs-migrations.ts';
import { metricsMigrations } from './metrics-migrations.ts';
import type { PostgresFeatureMigrations } from './migration-runner.ts';
import { remediationMigrations } from './remediation-migrations.ts';
import { replayMigrations } from './replay-migrations.ts';
import { sessionMigrations } from './session-migrations.ts';
import { settingsMigrations } from './settings-migrations.ts';
import { shareMigrations } from './share-migrations.ts';
import { signInCodesMigrations } from './sign-in-codes-migrations.ts';

/**
 * Every feature's PostgreSQL migrations, in the engine's feature order (a
 * feature's SQL may refer to tables of the features before it). The feature
 * names are the sql.js store's, and like them are recorded, so never renamed.
 */
export const POSTGRES_MIGRATIONS: readonly PostgresFeatureMigrations[] = [
  { feature: 'auth', migrations: authMigrations },
  { feature: 'accounts', migrations: accountsMigrations },
  { feature: 'session', migrations: sessionMigrations },
  { feature: 'sign-in-codes', migrations: signInCodesMigrations },
  { feature: 'settings', migrations: settingsMigrations },
  { feature: 'endpoints', migrations: endpointsMigrations },
  { feature: 'logs', migrations: logsMigrations },
  { feature: 'replay', migrations: replayMigrations },
  { feature: 'share', migrations: shareMigrations },
  { feature: 'remediation', migrations: remediationMigrations },
  { feature: 'metrics', migrations: metricsMigrations },
  { feature: 'events', migrations: eventsMigrations },
  { feature: 'instances', migrations: instancesMigrations },
];
