import type { PostgresMigration } from './migration-runner.ts';

/**
 * The endpoints feature's tables in PostgreSQL (its sql.js ones are
 * server/endpoints/endpoints-migrations.ts). Types chosen for PostgreSQL rather
 * than copied from SQLite: epoch milliseconds as `bigint` (read back as numbers,
 * see postgres-database.ts), `is_active` as `boolean`. `custom_response` stays
 * JSON in `text`, as in sql.js: it is read only with its endpoint, never queried
 * by its parts, and `text` gives back exactly the JSON written, where `jsonb`
 * would refuse a body holding U+0000 (an escape JSON allows in a string).
 */
export const endpointsMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'endpoints',
    sql: `CREATE TABLE endpoints (
            id text PRIMARY KEY,
            account_id text NOT NULL,
            name text NOT NULL,
            description text,
            validation_type text NOT NULL,
            secret text,
            previous_secret text,
            previous_secret_expires_at bigint,
            signature_header text,
            tolerance_seconds integer,
            forward_url text,
            custom_response text,
            is_active boolean NOT NULL DEFAULT true,
            created_at bigint NOT NULL,
            updated_at bigint NOT NULL
          );
          CREATE INDEX endpoints_by_account ON endpoints (account_id, created_at);`,
  },
];
