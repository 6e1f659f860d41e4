import {
  FULL_ROW,
  MAX_INDEXED_BODY,
  ROWS_PER_LOG,
  SIGNATURE_COLUMNS,
  signatureBytes,
  signatureWords,
} from '../../logs/search-index.ts';
import type { WriteOp } from '../../store/store-types.ts';

/**
 * The ops that index a log known by seq (search-backfill.ts writes every log's rows, in
 * the background). Without its body (not read: too large), one full row. A body over
 * MAX_INDEXED_BODY also gets one full row, and its signature's rows go to the blob files
 * (`log_search_spilled`), out of the in-memory database: a search reads them only for such
 * logs among its candidates (log-search-sqljs.ts). Each word is a bound parameter, so the
 * SQL depends on the number of rows: one for most deliveries, about one per KB of a larger
 * body. (Measured: ~60 us more per log with the words in one JSON text that the statement
 * unpacks.)
 */
export function searchIndexOpsBySeq(
  seq: number,
  path: string,
  rawHeadersJson: string,
  body: Uint8Array | undefined,
): WriteOp[] {
  if (body && body.length > MAX_INDEXED_BODY) {
    const signature = signatureBytes(path, rawHeadersJson, body);
    const full = rowsOp(seq, [FULL_ROW]);
    return signature ? [full, { sql: SPILL_SIGNATURE, params: [seq, signature.length], spill: signature }] : [full];
  }
  return [rowsOp(seq, body ? signatureWords(path, rawHeadersJson, body) : [FULL_ROW])];
}

// The blob's location is bound last (?3). Nothing is kept should the log be gone by now.
const SPILL_SIGNATURE = `INSERT OR REPLACE INTO log_search_spilled (log_seq, length, location)
  SELECT seq, ?2, ?3 FROM logs WHERE seq = ?1`;

function rowsOp(seq: number, rows: readonly (readonly number[])[]): WriteOp {
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
