import type { Clock } from '../../support/clock.ts';
import type { Random } from '../../support/random.ts';
import type { Sql } from './postgres-database.ts';

const KEY_BYTES = 32;

/**
 * The team server's token-signing key (auth-migrations.ts). The first instance
 * to ask creates it; ON CONFLICT makes instances starting together agree on the
 * first one written, which all of them then read.
 */
export async function loadOrCreatePostgresSigningKey(db: Sql, random: Random, clock: Clock): Promise<Uint8Array> {
  await db.query('INSERT INTO signing_key (id, key, created_at) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING', [
    random.bytes(KEY_BYTES),
    clock.now(),
  ]);
  const [row] = await db.query<{ key: Buffer }>('SELECT key FROM signing_key WHERE id = 1');
  if (!row || row.key.length !== KEY_BYTES) throw damaged();
  return new Uint8Array(row.key);
}

/**
 * The key as `hookscope token --database` reads it, without creating one (the
 * CLI never changes the schema): null when no engine has started on the database.
 */
export async function readPostgresSigningKey(db: Sql): Promise<Uint8Array | null> {
  const [exists] = await db.query<{ present: boolean }>("SELECT to_regclass('signing_key') IS NOT NULL AS present");
  if (!exists?.present) return null;
  const [row] = await db.query<{ key: Buffer }>('SELECT key FROM signing_key WHERE id = 1');
  if (!row) return null;
  if (row.key.length !== KEY_BYTES) throw damaged();
  return new Uint8Array(row.key);
}

const damaged = () => new Error(`The signing key in the database is damaged (expected ${KEY_BYTES} bytes).`);
