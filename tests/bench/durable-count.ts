// Counts the deliveries a store holds durably without waiting for its worker to
// apply them: the logs in the last snapshot plus the log inserts journaled after it.
// This is what a restart would recover, read straight from the files.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { decodeRecords } from '../../server/store/journal-codec.ts';
import { listSegments, SNAPSHOT_FILE } from '../../server/store/journal-files.ts';
import { openSnapshot } from '../../server/store/snapshot-file.ts';

// The statement SqljsLogsRepository.insert journals first for every capture.
const LOG_INSERT = /^\s*INSERT INTO logs\s/;

export async function countDurableLogs(storeDir: string): Promise<number> {
  let logs = 0;
  let lastSeq = 0;
  const snapshot = join(storeDir, SNAPSHOT_FILE);
  if (existsSync(snapshot)) {
    const { main, aux } = openSnapshot(await initSqlJs(), snapshot);
    try {
      logs = Number(main.exec('SELECT COUNT(*) FROM logs')[0]?.values[0]?.[0] ?? 0);
      lastSeq = Number(main.exec("SELECT value FROM store_meta WHERE key = 'last_seq'")[0]?.values[0]?.[0] ?? 0);
    } finally {
      main.close();
      aux.close();
    }
  }
  for (const seg of await listSegments(storeDir)) {
    const { records } = decodeRecords(await readFile(seg.path));
    for (const r of records) {
      if (r.seq > lastSeq && r.ops.some((op) => LOG_INSERT.test(op.sql))) logs++;
    }
  }
  return logs;
}
