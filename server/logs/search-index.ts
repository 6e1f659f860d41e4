import { AUX_SCHEMA, type WordBits } from '../store/store-types.ts';
import { likeView, likeViewOfString, type LikeTerm } from './like-text.ts';

/**
 * The text-search index: trigram signatures ("bloom" bits) of each log's path, headers
 * (the stored JSON) and body, as LIKE sees them (like-text.ts), in `log_search`.
 *
 * A row holds SIG_BITS bits in WORDS INTEGER columns w0.. of 48 bits each (the most a
 * JavaScript number carries exactly, so a word is one bound parameter), keyed
 * `seq * ROWS_PER_LOG + n` in sql.js (server/storage/sqljs/search-index-sqljs.ts writes
 * them) and `(log_seq, n)` in PostgreSQL. Each trigram sets one bit. A row is closed once MAX_SET bits
 * are set, so no row is saturated: a large body gets more rows instead (about one per KB
 * of JSON), the next one starting OVERLAP trigrams before the previous one ended, so the
 * trigrams of any substring of up to OVERLAP + 2 bytes are all in one row. A search
 * tests the trigrams of the term's first OVERLAP + 2 bytes against each row (one bit
 * each, grouped by column); a log with a row passing is a candidate, checked exactly
 * afterwards. Trigrams never span two fields, so they do not make a term match across
 * fields.
 */
const SIG_BITS = 1024;
const WORD_BITS = 48;
const WORDS = Math.ceil(SIG_BITS / WORD_BITS);
const BIT_SHIFT = 32 - Math.log2(SIG_BITS);
const MAX_SET = Math.floor(SIG_BITS * 0.4);
const OVERLAP = 61;
/** Rows a log may have (the key's low bits). */
export const ROWS_PER_LOG = 1024;
/**
 * The largest body indexed. Hashing runs on the engine's main thread (about 5 us per
 * KB; in the background on sql.js, in the insert on PostgreSQL): a larger body's log
 * gets one row with every bit set instead, so it is a candidate for every search and
 * always checked exactly (such bodies are rare).
 */
export const MAX_INDEXED_BODY = 64 * 1024;
/**
 * PostgreSQL's: its rows are on disk, not in the engine's memory, so larger bodies are
 * indexed too, up to what ROWS_PER_LOG rows hold (about 1 MB of JSON). Measured at
 * 100,000 deliveries, 1 in 100 of 64-256 KB: every search read and checked those 1,000
 * bodies (160 MB) in the database, 1.3-1.5 s; their rows take about 50 KB each, and
 * hashing one costs the receiver about 1.3 ms.
 */
export const POSTGRES_MAX_INDEXED_BODY = 1024 * 1024;
/** Every bit of a 48-bit word: the row of a log whose text was not indexed. */
const FULL_WORD = 2 ** WORD_BITS - 1;
/**
 * The word a log's row 0 holds until the log is indexed: all 64 bits set, which no
 * signature has (words are 48 bits), so the backfill can find it. Every probe passes it.
 */
export const UNINDEXED_WORD = -1;

/** The signature's columns, w0..: one word each (both backends' `log_search` tables). */
export const SIGNATURE_COLUMNS: readonly string[] = Array.from({ length: WORDS }, (_, i) => `w${i}`);
const UNINDEXED_ROW = `${SIGNATURE_COLUMNS.map(() => UNINDEXED_WORD).join(', ')}`;
const SEARCH_TABLE_COLUMNS = `key INTEGER PRIMARY KEY, ${SIGNATURE_COLUMNS.map((c) => `${c} INTEGER NOT NULL`).join(', ')}`;

/**
 * The table and what keeps it. Every new log first gets an unindexed row at key
 * `seq * ROWS_PER_LOG`, which passes every probe, so a log stored without the index op
 * (an old journal record replayed after the upgrade) is still found; logs already
 * stored get the same row, which the backfill replaces. The index op replaces it with
 * the log's rows. Deleting a log deletes its rows.
 */
export const SEARCH_INDEX_SQL = `CREATE TABLE log_search (${SEARCH_TABLE_COLUMNS});
  ${searchTriggers('TRIGGER', 'logs')}
  INSERT INTO log_search (key, ${SIGNATURE_COLUMNS.join(', ')}) SELECT seq * ${ROWS_PER_LOG}, ${UNINDEXED_ROW} FROM logs;`;

/**
 * The embedded store's step that moves `log_search` to its aux database (server/store/
 * snapshot-file.ts): a checkpoint then copies the signatures and the rest one at a time.
 * Measured at 100,000 deliveries: 376 of 1,074 bytes a delivery. The triggers that keep it
 * become TEMP ones (SEARCH_INDEX_TEMPORARY), created on every open.
 */
export const SEARCH_INDEX_TO_AUX_SQL = `CREATE TABLE ${AUX_SCHEMA}.log_search (${SEARCH_TABLE_COLUMNS});
  INSERT INTO ${AUX_SCHEMA}.log_search (key, ${SIGNATURE_COLUMNS.join(', ')}) SELECT key, ${SIGNATURE_COLUMNS.join(', ')} FROM main.log_search;
  DROP TRIGGER logs_search_unindexed;
  DROP TRIGGER logs_search_deleted;
  DROP TABLE main.log_search;
  CREATE INDEX ${AUX_SCHEMA}.log_search_unindexed ON log_search (key) WHERE w0 = ${UNINDEXED_WORD};`;

/** What keeps the moved `log_search`, for SEARCH_INDEX_TO_AUX_SQL's `temporary`. */
export const SEARCH_INDEX_TEMPORARY = searchTriggers('TEMP TRIGGER', 'main.logs');

/**
 * Every new log first gets the unindexed row; deleting a log deletes its rows. Unqualified
 * `log_search` in the bodies: SQLite resolves it to the one database that has it.
 */
function searchTriggers(kind: 'TRIGGER' | 'TEMP TRIGGER', logs: string): string {
  return `CREATE ${kind} logs_search_unindexed AFTER INSERT ON ${logs} BEGIN
    INSERT OR REPLACE INTO log_search (key, ${SIGNATURE_COLUMNS.join(', ')}) VALUES (NEW.seq * ${ROWS_PER_LOG}, ${UNINDEXED_ROW});
  END;
  CREATE ${kind} logs_search_deleted AFTER DELETE ON ${logs} BEGIN
    DELETE FROM log_search WHERE key BETWEEN OLD.seq * ${ROWS_PER_LOG} AND OLD.seq * ${ROWS_PER_LOG} + ${ROWS_PER_LOG - 1};
  END;`;
}

/** Each row's WORDS words. */
export function signatureWords(
  path: string,
  rawHeadersJson: string,
  body: Uint8Array,
  maxBody = MAX_INDEXED_BODY,
): readonly (readonly number[])[] {
  if (body.length > maxBody) return [FULL_ROW];
  const rows = signatureRows(path, rawHeadersJson, body);
  return rows.length > ROWS_PER_LOG ? [FULL_ROW] : rows.map(words48);
}

function signatureRows(path: string, rawHeadersJson: string, body: Uint8Array): Int32Array[] {
  const builder = new RowBuilder();
  builder.add(likeViewOfString(path));
  builder.add(likeViewOfString(rawHeadersJson));
  builder.add(likeView(body));
  return builder.finish();
}

/**
 * The largest body whose signature the embedded store keeps in its blob files (a body over
 * MAX_INDEXED_BODY gets a full row in `log_search`, and its rows go to the blob files instead
 * of the database: server/storage/sqljs/search-index-sqljs.ts). sql.js holds the database in
 * memory and a checkpoint copies it; the blob files are read only by a search. Measured at
 * 100,000 deliveries, 1 in 100 of 64-256 KB: every search read and checked those 1,000 bodies
 * (160 MB), 315 ms p95; their signatures are about 20 MB (about 128 bytes per KB of JSON).
 */
export const SPILLED_MAX_INDEXED_BODY = POSTGRES_MAX_INDEXED_BODY;
/** Bytes of one signature row as the blob files keep it: SIG_BITS bits, 32-bit little-endian words. */
export const ROW_BYTES = SIG_BITS / 8;

/**
 * A log's signature rows as bytes, for the blob files (ROW_BYTES a row), or null when the text
 * is larger than `maxBody` or needs more than ROWS_PER_LOG rows: such a log keeps only its full row.
 */
export function signatureBytes(
  path: string,
  rawHeadersJson: string,
  body: Uint8Array,
  maxBody = SPILLED_MAX_INDEXED_BODY,
): Uint8Array | null {
  if (body.length > maxBody) return null;
  const rows = signatureRows(path, rawHeadersJson, body);
  if (rows.length > ROWS_PER_LOG) return null;
  const out = new DataView(new ArrayBuffer(rows.length * ROW_BYTES));
  rows.forEach((row, r) => row.forEach((word, k) => out.setInt32(r * ROW_BYTES + 4 * k, word, true)));
  return new Uint8Array(out.buffer);
}

/** What a search asks of each row as 32-bit words (index, bits), only those asking something. */
export function probeWords(term: LikeTerm): WordBits[] {
  return Array.from(probeBits(term), (bits, index): WordBits => [index, bits]).filter(([, bits]) => bits !== 0);
}

/** The row of a log whose text is not indexed (too large): every bit set, so every probe passes it. */
export const FULL_ROW: readonly number[] = new Array<number>(WORDS).fill(FULL_WORD);

class RowBuilder {
  private readonly rows: Int32Array[] = [];
  private row = new Int32Array(SIG_BITS / 32);
  private set = 0;

  add(text: Uint8Array): void {
    let start = 0;
    for (let i = 0; i + 2 < text.length; i++) {
      const bit = trigramBit(text, i);
      const m = 1 << (bit & 31);
      if ((this.row[bit >>> 5]! & m) === 0) {
        this.row[bit >>> 5]! |= m;
        if (++this.set >= MAX_SET && i + 3 < text.length) {
          // Full: the next row starts OVERLAP trigrams back, or where this one started in
          // this field (that row, fresh, then covers more than OVERLAP of them before it fills).
          this.close();
          start = Math.max(start, i + 1 - OVERLAP);
          i = start - 1;
        }
      }
    }
  }

  finish(): Int32Array[] {
    if (this.set > 0 || this.rows.length === 0) this.close();
    return this.rows;
  }

  private close(): void {
    this.rows.push(this.row);
    this.row = new Int32Array(SIG_BITS / 32);
    this.set = 0;
  }
}

/** The bit of the trigram at i: a multiplicative hash of its three bytes. */
function trigramBit(text: Uint8Array, i: number): number {
  return Math.imul(text[i]! | (text[i + 1]! << 8) | (text[i + 2]! << 16), 0x9e3779b1) >>> BIT_SHIFT;
}

/** 1024 bits as 32-bit words -> 48-bit words (a word starts on a 32-bit boundary or half-way into one). */
function words48(bits: Int32Array): number[] {
  const u = (k: number) => (k < bits.length ? bits[k]! >>> 0 : 0);
  return Array.from({ length: WORDS }, (_, j) => {
    const k = (j * WORD_BITS) >>> 5;
    return j % 2 === 0 ? u(k) + (u(k + 1) & 0xffff) * 2 ** 32 : (u(k) >>> 16) + u(k + 1) * 2 ** 16;
  });
}

/** What a search asks of each row: the words all of whose bits must be set, by column. */
export function indexProbe(term: LikeTerm): { column: number; mask: number }[] {
  return words48(probeBits(term)).flatMap((mask, column) => (mask === 0 ? [] : [{ column, mask }]));
}

/** The bits of the trigrams of the term's first OVERLAP + 2 bytes, as a row holds them. */
function probeBits(term: LikeTerm): Int32Array {
  const view = term.view.subarray(0, OVERLAP + 2);
  const bits = new Int32Array(SIG_BITS / 32);
  for (let i = 0; i + 2 < view.length; i++) {
    const bit = trigramBit(view, i);
    bits[bit >>> 5]! |= 1 << (bit & 31);
  }
  return bits;
}

/**
 * The WHERE condition on `log_search s` for the probe (no trigram: every row passes), and its
 * parameters. `placeholder(i)` names the i-th of them (0-based): `?` for SQLite, `$n` for PostgreSQL.
 */
export function probeCondition(
  probe: { column: number; mask: number }[],
  placeholder: (i: number) => string = () => '?',
): { sql: string; params: number[] } {
  if (probe.length === 0) return { sql: '1 = 1', params: [] };
  return {
    sql: probe
      .map(({ column }, i) => `(s.w${column} & ${placeholder(2 * i)}) = ${placeholder(2 * i + 1)}`)
      .join(' AND '),
    params: probe.flatMap(({ mask }) => [mask, mask]),
  };
}
