import { FULL_ROW, ROWS_PER_LOG, SIGNATURE_COLUMNS, signatureWords } from '../../logs/search-index.ts';
import type { WriteOp } from '../../store/store-types.ts';

/**
 * The op that indexes a log (after its INSERT, in the same record). Each word is a bound
 * parameter, so the SQL depends on the number of rows: one for most deliveries, about
 * one per KB of a larger body. (Measured: applying a delivery costs ~25 us more; ~60 us
 * more with the words in one JSON text that the statement unpacks.)
 */
export function searchIndexOp(id: string, path: string, rawHeadersJson: string, body: Uint8Array): WriteOp {
  return writeRows(signatureWords(path, rawHeadersJson, body), 'id', id);
}

/** The backfill's op: the same rows, for a log known by seq; without its body (not read: too large), one full row. */
export function searchIndexOpBySeq(
  seq: number,
  path: string,
  rawHeadersJson: string,
  body: Uint8Array | undefined,
): WriteOp {
  return writeRows(body ? signatureWords(path, rawHeadersJson, body) : [FULL_ROW], 'seq', seq);
}

const ONE_ROW_BY_ID = writeRowsSql(1, 'id');

function writeRows(rows: readonly (readonly number[])[], by: 'id' | 'seq', key: string | number): WriteOp {
  const params: (string | number)[] = [key];
  for (const row of rows) for (const w of row) params.push(w);
  return { sql: rows.length === 1 && by === 'id' ? ONE_ROW_BY_ID : writeRowsSql(rows.length, by), params };
}

/**
 * The log's seq is looked up once (SQLite runs an uncorrelated subquery once per
 * statement). Should the log be gone (a backfill racing a delete), the rows go to seq
 * -1, which no log has, instead of a NULL key, for which SQLite would pick a rowid.
 */
function writeRowsSql(rows: number, by: 'id' | 'seq'): string {
  const base = `COALESCE((SELECT seq FROM logs WHERE ${by} = ?1), -1) * ${ROWS_PER_LOG}`;
  const words = SIGNATURE_COLUMNS.map(() => '?').join(', ');
  const values = Array.from({ length: rows }, (_, n) => `(${base} + ${n}, ${words})`).join(', ');
  return `INSERT OR REPLACE INTO log_search (key, ${SIGNATURE_COLUMNS.join(', ')}) VALUES ${values}`;
}
