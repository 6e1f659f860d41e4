import type { Clock } from '../../support/clock.ts';
import { ADVISORY_LOCKS } from './advisory-locks.ts';
import { transaction, type PostgresDatabase, type Sql } from './postgres-database.ts';

/**
 * A schema change of one feature in PostgreSQL, numbered 1, 2, 3... within the
 * feature like the sql.js store's. ADDITIVE ONLY (new tables, columns with a
 * default or nullable, indexes): during a rolling update instances of version N
 * and N+1 run on the same database, so N must keep working on N+1's schema. A
 * rename or a drop is two releases apart: stop using it, then remove it.
 */
export interface PostgresMigration {
  number: number;
  name: string;
  /** One or more statements; the runner wraps them in a transaction of their own (no BEGIN/COMMIT here). */
  sql: string;
}

/** One feature's migrations; `feature` is recorded with each, so it never changes. */
export interface PostgresFeatureMigrations {
  feature: string;
  migrations: readonly PostgresMigration[];
}

export interface AppliedMigration {
  feature: string;
  number: number;
  name: string;
}

const FEATURE_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * Applies the migrations this database lacks, feature by feature in the order
 * given (a feature's SQL may refer to tables of features before it), each in its
 * own transaction together with its `schema_migrations` row, and answers what it
 * applied. Instances starting together on an empty database take turns on an
 * advisory lock: the first applies everything, the others find it done.
 *
 * A recorded migration this list does not know was applied by a newer version:
 * additive changes keep this version working on that schema, so it is left alone.
 */
export async function runMigrations(
  db: PostgresDatabase,
  sets: readonly PostgresFeatureMigrations[],
  clock: Clock,
): Promise<AppliedMigration[]> {
  // Before the database is touched: a slip in the list never half-migrates a database.
  checkMigrationSets(sets);
  return db.session(async (session) => {
    // Session-level: held across the per-migration transactions. When one fails, the session's connection
    // is discarded (PostgresDatabase.session), which releases the lock with it.
    await session.query('SELECT pg_advisory_lock($1, $2)', ADVISORY_LOCKS.migrations);
    const applied = await applyPending(session, sets, clock);
    await session.query('SELECT pg_advisory_unlock($1, $2)', ADVISORY_LOCKS.migrations);
    return applied;
  });
}

async function applyPending(
  session: Sql,
  sets: readonly PostgresFeatureMigrations[],
  clock: Clock,
): Promise<AppliedMigration[]> {
  await session.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      feature text NOT NULL,
      number integer NOT NULL,
      name text NOT NULL,
      applied_at timestamptz NOT NULL,
      PRIMARY KEY (feature, number)
    )`);
  const recorded = await session.query<{ feature: string; number: number }>(
    'SELECT feature, number FROM schema_migrations',
  );
  const done = new Set(recorded.map((r) => `${r.feature} ${r.number}`));
  const applied: AppliedMigration[] = [];
  for (const set of sets) {
    for (const m of set.migrations) {
      if (done.has(`${set.feature} ${m.number}`)) continue;
      try {
        await transaction(session, async (tx) => {
          await tx.query(m.sql);
          await tx.query(
            'INSERT INTO schema_migrations (feature, number, name, applied_at) VALUES ($1, $2, $3, to_timestamp($4 / 1000.0))',
            [set.feature, m.number, m.name, clock.now()],
          );
        });
      } catch (e) {
        throw new Error(`PostgreSQL migration ${set.feature} ${m.number} (${m.name}) failed: ${(e as Error).message}`, {
          cause: e,
        });
      }
      applied.push({ feature: set.feature, number: m.number, name: m.name });
    }
  }
  return applied;
}

/** A feature listed twice, or migrations not numbered 1, 2, 3... in the order written, is a slip in the code. */
function checkMigrationSets(sets: readonly PostgresFeatureMigrations[]): void {
  const features = new Set<string>();
  for (const set of sets) {
    if (!FEATURE_NAME.test(set.feature)) throw new Error(`migrations: feature name "${set.feature}" is not kebab-case`);
    if (features.has(set.feature)) throw new Error(`migrations: feature "${set.feature}" is listed twice`);
    features.add(set.feature);
    for (const [i, m] of set.migrations.entries()) {
      if (m.number !== i + 1)
        throw new Error(`migrations: ${set.feature} ${m.number} (${m.name}) is number ${i + 1} in its list`);
    }
  }
}
