import type { PostgresMigration } from './migration-runner.ts';

/**
 * The share feature's tables in PostgreSQL (its sql.js ones are
 * server/share/share-migrations.ts). Only the SHA-256 of a token is kept. Epoch
 * milliseconds are `bigint` (read back as numbers, see postgres-database.ts),
 * the redaction flags `boolean`. One live link per log: the unique index is what
 * `replace` upserts on. A link follows its log by the foreign key
 * `log_id REFERENCES logs (id) ON DELETE CASCADE` (sql.js: the trigger
 * shares_follow_logs), so the link goes in the transaction that deletes the log;
 * `shares_by_log_id` serves that cascade (the unique index leads with the account).
 * Every text column holds an id or a hash the engine made, never outside text.
 */
export const shareMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'shares',
    sql: `CREATE TABLE shares (
            token_hash text PRIMARY KEY,
            account_id text NOT NULL,
            log_id text NOT NULL REFERENCES logs (id) ON DELETE CASCADE,
            endpoint_id text NOT NULL,
            redact boolean NOT NULL,
            redact_path boolean NOT NULL,
            created_at bigint NOT NULL,
            expires_at bigint NOT NULL
          );
          CREATE UNIQUE INDEX shares_by_log ON shares (account_id, log_id);
          CREATE INDEX shares_by_endpoint ON shares (account_id, endpoint_id);
          CREATE INDEX shares_by_log_id ON shares (log_id);`,
  },
];
