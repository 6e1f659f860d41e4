/** Values the store binds and returns: what SQLite holds. */
export type SqlValue = string | number | null | Uint8Array;
export type Row = Record<string, SqlValue>;

/** One statement of a mutation. The journal records the SQL text itself, so replay needs no catalogue. */
export interface WriteOp {
  sql: string;
  params: SqlValue[];
  /**
   * Housekeeping that may run once for a whole group of records instead of once per
   * record: the worker applies records in groups (one transaction), and runs each
   * distinct coalesced op (same SQL, same parameters) once, after the group's other
   * statements, in the same transaction. For idempotent clean-ups whose result does
   * not depend on running after every record (retention: "evict the oldest beyond
   * the budget"). Measured: evicting per record cost about 95 us of the worker's
   * ~150 us per delivery; once per group it is a few us per delivery.
   */
  coalesce?: boolean;
  /**
   * A large value kept out of the database (a log's body): the worker appends it to
   * the store's blob files and binds its location, an integer, as one more
   * parameter after `params`. Read it back with a query's `blob` option. The
   * in-memory database, and so memory and every snapshot, then hold only metadata.
   */
  spill?: Uint8Array;
  /**
   * This op is a query whose rows are `(location, length)` of spilled values to
   * overwrite with zeros at once (a log deleted on purpose: its body must not stay
   * readable in a blob file until the file goes). Put it before the op that deletes
   * the rows.
   */
  wipe?: boolean;
  /**
   * A query of one value: the op runs only when it is true (not 0 or NULL). For a
   * coalesced clean-up that is rarely due: SQLite's `DELETE ... WHERE seq IN
   * (subquery)` costs its setup even when it deletes nothing (measured on the
   * worker at 35,000 logs: 485 us for each of retention's two, 20 us per delivery
   * of its ~145; the guard's lookup is a few us).
   */
  when?: { sql: string; params: SqlValue[] };
}

/**
 * A 32-bit word of a spilled value's records (its index, counted in words) and the bits it
 * must all have: what the store's SQL function `blob_has_bits` is asked (blob-bits.ts).
 */
export type WordBits = readonly [index: number, bits: number];

/**
 * Reads a spilled value back into each row a query returns: the row's `location`
 * and `length` columns name it, and it is put in the `into` column (rows whose
 * location is null keep what `into` holds).
 */
export interface BlobColumns {
  location: string;
  length: string;
  into: string;
}

/**
 * The schema name of the embedded store's second database, attached to the main connection: a
 * feature's migration may move a table there (`aux.<table>`), and a checkpoint exports the two
 * one at a time (server/store/snapshot-file.ts).
 */
export const AUX_SCHEMA = 'aux';

/**
 * A schema change owned by a feature, numbered 1, 2, 3... within that feature.
 * The store records (feature, number) of each applied one; a feature's name is
 * therefore part of the store's format and never changes.
 */
export interface Migration {
  number: number;
  name: string;
  sql: string;
  /**
   * The engine-wide version this step had in stores written by Hookscope 0.1.0,
   * before migrations were keyed by feature. Such a store is upgraded on open by
   * mapping its versions through this; steps added later have none.
   */
  legacyVersion?: number;
  /**
   * SQL run on every open once this step is applied, after all migrations and before the
   * journal is replayed: TEMP triggers that keep a table of the `aux` database (a trigger
   * stored in one database cannot write to a table of another; a TEMP one can, and lives
   * as long as the connection).
   */
  temporary?: string;
}

/**
 * One feature's migrations. The store applies the sets in the order given: a
 * feature's SQL may refer to tables of features before it (share's triggers fire
 * on `logs`), never to later ones.
 */
export interface FeatureMigrations {
  feature: string;
  migrations: readonly Migration[];
}

/** One read of a batch: `one` returns the first row (or undefined) instead of all rows. */
export interface ReadQuery {
  sql: string;
  params?: SqlValue[];
  one?: boolean;
  blob?: BlobColumns;
}

/** A batch's results, in query order: rows for a plain query, a row or undefined for `one`. */
export type BatchResult<Q extends readonly ReadQuery[]> = {
  [K in keyof Q]: Q[K] extends { one: true } ? Row | undefined : Row[];
};

export type WriteAck = 'durable' | 'applied';

/** What a write promises beyond its acknowledgement. */
export interface WriteReceipt {
  /**
   * Settles (never rejects) once the database worker is done with the record,
   * applied or failed. A `durable` write is acknowledged before that; a caller
   * holding memory for the write (the receiver's body budget) waits for this.
   */
  settled: Promise<void>;
}

export interface CheckpointResult {
  bytes: number;
  ms: number;
  lastSeq: number;
  /** Blob files deleted because no row referred to them any more. */
  blobFilesDeleted: number;
}

/**
 * The narrow interface repositories use. Writes are journaled and acknowledged
 * either once durable (journal written: the receiver's hot path) or once applied
 * to the database (API mutations, so their errors surface to the caller).
 * Reads observe every write acknowledged before them.
 */
export interface Store {
  write(ops: WriteOp[], ack?: WriteAck): Promise<WriteReceipt>;
  all<T extends object = Row>(sql: string, params?: SqlValue[], blob?: BlobColumns): Promise<T[]>;
  get<T extends object = Row>(sql: string, params?: SqlValue[], blob?: BlobColumns): Promise<T | undefined>;
  /** Runs the reads together, with no write applied between them (a page and its count agree). */
  batch<const Q extends readonly ReadQuery[]>(queries: Q): Promise<BatchResult<Q>>;
  checkpoint(): Promise<CheckpointResult>;
  /** Runs `hook` (awaited, errors reported, never blocking) before every checkpoint, periodic ones included. */
  beforeCheckpoint(hook: () => Promise<unknown>): void;
  close(): Promise<void>;
}
