import initSqlJs, { type Database } from 'sql.js';
import { openSnapshot } from '../../server/store/snapshot-file.ts';

/** Runs `read` on a store's snapshot file as it is on disk (what the next start loads), both databases attached. */
export async function withSnapshot<T>(snapshotPath: string, read: (db: Database) => T): Promise<T> {
  const { main, aux } = openSnapshot(await initSqlJs(), snapshotPath);
  try {
    return read(main);
  } finally {
    main.close();
    aux.close();
  }
}

/** Runs one query on a store's snapshot file as it is on disk. */
export async function snapshotQuery(snapshotPath: string, sql: string): Promise<unknown[][]> {
  return withSnapshot(snapshotPath, (db) => db.exec(sql)[0]?.values ?? []);
}
