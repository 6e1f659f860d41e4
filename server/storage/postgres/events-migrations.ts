import type { PostgresMigration } from './migration-runner.ts';

/**
 * The live event log shared by a team server's instances (events-postgres.ts).
 * The identity column is the SSE id, global across instances, so `Last-Event-ID`
 * resumes on any of them. `data` is the event's JSON as text, what the UI gets
 * (never a secret: see EndpointChangedSchema); `at` epoch milliseconds, by
 * which housekeeping prunes.
 */
export const eventsMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'events',
    sql: `CREATE TABLE events (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            account_id text NOT NULL,
            type text NOT NULL,
            data text NOT NULL,
            at bigint NOT NULL
          );
          CREATE INDEX events_by_account ON events (account_id, id);
          CREATE INDEX events_by_at ON events (at);`,
  },
];
