// What a seeded store holds per delivery: the pages of each logs table and index in its
// snapshot, and the average size of the row's larger columns. sql.js's build has no
// dbstat table, so each object's pages are counted by dropping it from a copy: a dropped
// table or index's pages all go to the free list of its database (main or aux).
import { stat } from 'node:fs/promises';
import initSqlJs from 'sql.js';
import { openSnapshot } from '../../server/store/snapshot-file.ts';
import { AUX_SCHEMA } from '../../server/store/store-types.ts';

/** The logs feature's tables, in the order they are dropped (each after the indexes on it). */
const TABLES = ['log_search', 'log_bodies', 'log_hourly', 'log_stats', 'logs'];
/** Columns of `logs` (and log_search's count of rows) whose size is worth a look, averaged per log. */
const COLUMNS = ['id', 'account_id', 'endpoint_id', 'raw_headers', 'query', 'verification', 'path', 'content_type'];

export interface StoreBytes {
  logs: number;
  fileBytes: number;
  /** Bytes of each of the snapshot's databases: a checkpoint holds a copy of one at a time. */
  databases: { main: number; aux: number };
  /** Bytes of each object: the logs feature's tables and their indexes, then everything else together. */
  objects: { name: string; bytes: number }[];
  /** Average bytes per log of the row's text columns. */
  columns: { name: string; bytes: number }[];
  /** log_search rows per log (the signatures: one row per about 1 KB of a log's text). */
  searchRowsPerLog: number;
}

/** Reads `snapshot` (a checkpointed store's hookscope.db) into a copy of its own and takes it apart. */
export async function storeBytes(snapshot: string): Promise<StoreBytes> {
  const { main: db, aux } = openSnapshot(await initSqlJs(), snapshot);
  try {
    const scalar = (sql: string): number => Number(db.exec(sql)[0]?.values[0]?.[0] ?? 0);
    const schemas = ['main', AUX_SCHEMA];
    const size = (schema: string): number =>
      scalar(`PRAGMA ${schema}.page_count`) * scalar(`PRAGMA ${schema}.page_size`);
    const databases = { main: size('main'), aux: size(AUX_SCHEMA) };
    const freeIn = (schema: string): number =>
      scalar(`PRAGMA ${schema}.freelist_count`) * scalar(`PRAGMA ${schema}.page_size`);
    const free = (): number => schemas.reduce((sum, schema) => sum + freeIn(schema), 0);
    const used = (): number => schemas.reduce((sum, schema) => sum + size(schema) - freeIn(schema), 0);
    const logs = scalar('SELECT COUNT(*) FROM logs');
    const per = Math.max(1, logs);
    const columns = COLUMNS.map((c) => ({
      name: c,
      bytes: scalar(`SELECT SUM(LENGTH(CAST(${c} AS BLOB))) FROM logs`) / per,
    }));
    const searchRowsPerLog = scalar('SELECT COUNT(*) FROM log_search') / per;
    const objects: { name: string; bytes: number }[] = [];
    // The UNIQUE constraint's index on logs.id cannot be dropped: an index of the same column is built to weigh it.
    const before = used();
    db.run('CREATE INDEX bench_weighs_id ON logs (id)');
    objects.push({ name: 'logs.id (UNIQUE)', bytes: used() - before });
    db.run('DROP INDEX bench_weighs_id');
    const drop = (kind: 'INDEX' | 'TABLE', name: string, label: string): void => {
      const was = free();
      db.run(`DROP ${kind} ${name}`);
      objects.push({ name: label, bytes: free() - was });
    };
    for (const table of TABLES) {
      const indexes = schemas.flatMap((schema) =>
        db
          .exec(
            `SELECT name FROM ${schema}.sqlite_master WHERE type = 'index' AND tbl_name = '${table}' AND sql IS NOT NULL ORDER BY name`,
          )
          .flatMap((r) => r.values.map(([name]) => `${schema}.${String(name)}`)),
      );
      for (const name of indexes) drop('INDEX', name, `${table} index ${name.split('.')[1]!}`);
      drop('TABLE', table, table === 'logs' ? 'logs (rows, with the id index)' : table);
    }
    objects.push({ name: 'everything else (other features)', bytes: used() });
    return { logs, fileBytes: (await stat(snapshot)).size, databases, objects, columns, searchRowsPerLog };
  } finally {
    db.close();
    aux.close();
  }
}
