import { readFile } from 'node:fs/promises';
import initSqlJs from 'sql.js';

/** Runs one query on a store's snapshot file as it is on disk (what the next start loads). */
export async function snapshotQuery(snapshotPath: string, sql: string): Promise<unknown[][]> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(await readFile(snapshotPath));
  try {
    return db.exec(sql)[0]?.values ?? [];
  } finally {
    db.close();
  }
}
