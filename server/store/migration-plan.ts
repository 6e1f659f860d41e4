import type { FeatureMigrations } from './store-types.ts';

const FEATURE_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * Refuses a migration list the store could not apply safely: a feature listed
 * twice, a feature's migrations not numbered 1, 2, 3... in the order written (a
 * gap or a repeat is a slip that would renumber a store's history), or a legacy
 * version claimed twice (the upgrade of an old store would be ambiguous).
 * Checked before the database is touched, so a mistake in the code never half-migrates a store.
 */
export function checkMigrationSets(sets: readonly FeatureMigrations[]): void {
  const features = new Set<string>();
  const legacy = new Map<number, string>();
  for (const set of sets) {
    if (!FEATURE_NAME.test(set.feature)) throw new Error(`migrations: feature name "${set.feature}" is not kebab-case`);
    if (features.has(set.feature)) throw new Error(`migrations: feature "${set.feature}" is listed twice`);
    features.add(set.feature);
    for (const [i, m] of set.migrations.entries()) {
      const key = migrationLabel(set.feature, m);
      if (m.number !== i + 1) throw new Error(`migrations: ${key} is number ${i + 1} in its list`);
      if (m.legacyVersion === undefined) continue;
      const other = legacy.get(m.legacyVersion);
      if (other) throw new Error(`migrations: ${key} and ${other} both claim legacy version ${m.legacyVersion}`);
      legacy.set(m.legacyVersion, key);
    }
  }
}

/** A migration's name in messages and the engine log: `logs 3 (logs_declared_size)`. */
export const migrationLabel = (feature: string, m: { number: number; name: string }): string =>
  `${feature} ${m.number} (${m.name})`;
