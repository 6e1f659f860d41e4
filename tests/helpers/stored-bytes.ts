import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Engine } from '../../server/engine/engine.ts';

/**
 * Everything the engine's backend holds, as bytes, to check what is never
 * stored (a share token, a session id): with the embedded store every file of
 * `<dataDir>/store` (snapshot, journals, blob files); with PostgreSQL every row
 * of every table of the database, as text.
 */
export async function storedBytes(engine: Engine): Promise<Buffer> {
  const url = engine.config.databaseUrl;
  if (url === null) {
    const dir = join(engine.dataDir, 'store');
    const files = await readdir(dir);
    return Buffer.concat(await Promise.all(files.map((f) => readFile(join(dir, f)))));
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    const parts: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await client.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
      parts.push(...rows.rows.map((r) => r.row));
    }
    return Buffer.from(parts.join('\n'));
  } finally {
    await client.end();
  }
}
