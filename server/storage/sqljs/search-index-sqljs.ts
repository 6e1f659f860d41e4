import { FULL_ROW, ROWS_PER_LOG, SIGNATURE_COLUMNS, signatureWords } from '../../logs/search-index.ts';
import type { WriteOp } from '../../store/store-types.ts';

/**
 * The op that indexes a log known by seq (search-backfill.ts writes every log's rows,
 * in the background); without its body (not read: too large), one full row. Each
 * word is a bound parameter, so the SQL depends on the number of rows: one for most
 * deliveries, about one per KB of a larger body. (Measured: ~60 us more per log with
 * the words in one JSON text that the statement unpacks.)
 */
export function searchIndexOpBySeq(
  seq: number,
  path: string,
  rawHeadersJson: string,
  body: Uint8Array | undefined,
): WriteOp {
  const rows = body ? signatureWords(path, rawHeadersJson, body) : [FULL_ROW];
  const params: number[] = [seq];
  for (const row of rows) for (const w of row) params.push(w);
  return { sql: writeRowsSql(rows.length), params };
}

/**
 * The log's seq is looked up once (SQLite runs an uncorrelated subquery once per
 * statement). Should the log be gone (the indexer racing a delete), the rows go to seq
 * -1, which no log has, instead of a NULL key, for which SQLite would pick a rowid.
 */
function writeRowsSql(rows: number): string {
  const base = `COALESCE((SELECT seq FROM logs WHERE seq = ?1), -1) * ${ROWS_PER_LOG}`;
  const words = SIGNATURE_COLUMNS.map(() => '?').join(', ');
  const values = Array.from({ length: rows }, (_, n) => `(${base} + ${n}, ${words})`).join(', ');
  return `INSERT OR REPLACE INTO log_search (key, ${SIGNATURE_COLUMNS.join(', ')}) VALUES ${values}`;
}
