import type { Migration } from '../store/store-types.ts';

export const endpointsMigrations: Migration[] = [
  {
    number: 1,
    legacyVersion: 2,
    name: 'endpoints',
    sql: `CREATE TABLE endpoints (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            name TEXT NOT NULL,
            description TEXT,
            validation_type TEXT NOT NULL,
            secret TEXT,
            previous_secret TEXT,
            previous_secret_expires_at INTEGER,
            signature_header TEXT,
            tolerance_seconds INTEGER,
            forward_url TEXT,
            is_active INTEGER NOT NULL DEFAULT 1,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
          );
          CREATE INDEX endpoints_by_account ON endpoints (account_id, created_at);`,
  },
  {
    number: 2,
    name: 'endpoint custom response',
    // The whole answer as JSON: it is read only with the endpoint, never queried by its parts.
    sql: 'ALTER TABLE endpoints ADD COLUMN custom_response TEXT',
  },
];
