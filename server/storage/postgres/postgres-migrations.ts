import { accountsMigrations } from './accounts-migrations.ts';
import { endpointsMigrations } from './endpoints-migrations.ts';
import type { PostgresFeatureMigrations } from './migration-runner.ts';
import { remediationMigrations } from './remediation-migrations.ts';

/**
 * Every feature's PostgreSQL migrations, in the engine's feature order (a
 * feature's SQL may refer to tables of the features before it). The feature
 * names are the sql.js store's, and like them are recorded, so never renamed.
 */
export const POSTGRES_MIGRATIONS: readonly PostgresFeatureMigrations[] = [
  { feature: 'accounts', migrations: accountsMigrations },
  { feature: 'endpoints', migrations: endpointsMigrations },
  { feature: 'remediation', migrations: remediationMigrations },
];
