import type { PostgresMigration } from './migration-runner.ts';

/**
 * What `PATCH /api/settings` saves on a team server: one row, shared by every
 * instance, holding the saved keys shaped like config.json (`document`), a
 * count of saves every instance polls for (`version`) and when the last was
 * made (`updated_at`, epoch ms). It may hold the LLM's API key, as config.json may.
 */
export const settingsMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'settings',
    sql: `CREATE TABLE settings (
            id smallint PRIMARY KEY CHECK (id = 1),
            document jsonb NOT NULL,
            version bigint NOT NULL,
            updated_at bigint NOT NULL
          );`,
  },
];
