import type { BlobColumns, FeatureMigrations, ReadQuery, Row, SqlValue } from './store-types.ts';

/** Messages between the store facade (main thread) and the database worker. */
export type ToWorker =
  | { t: 'open'; id: number; dir: string; migrations: readonly FeatureMigrations[]; applyDelayMs?: number }
  /** Journal frames, back to back, exactly as journaled (a copy moved, not cloned, to the worker). */
  | { t: 'apply'; frames: Uint8Array }
  | { t: 'query'; id: number; sql: string; params: SqlValue[]; one: boolean; blob?: BlobColumns }
  | { t: 'batch'; id: number; queries: ReadQuery[] }
  | { t: 'checkpoint'; id: number }
  | { t: 'memory'; id: number }
  | { t: 'close'; id: number };

export interface OpenResult {
  lastSeq: number;
  lastSegment: number;
  replayed: number;
  tornBytes: number;
  /** Bytes cut from the blob files: written after the snapshot by records the journal replays. */
  blobBytesCut: number;
  /** Bytes of free pages given back by rebuilding a database that was mostly empty space. */
  compactedBytes: number;
}

/** The worker thread's own memory, and how often it collected stale database copies (stale-copies.ts). */
export interface WorkerMemory {
  /** Bytes of ArrayBuffers the worker holds: sql.js's database file, and any copies of it not yet freed. */
  arrayBuffers: number;
  heapUsed: number;
  collections: number;
}

export type FromWorker =
  | { t: 'reply'; id: number; ok: true; value: unknown }
  | { t: 'reply'; id: number; ok: false; message: string }
  | {
      t: 'applied';
      upTo: number;
      /** Records that were not applied (rolled back on their own). */
      failures: { seq: number; message: string }[];
      /** Coalesced clean-ups that failed; the records they followed are applied. */
      warnings: string[];
    };

export type QueryValue = Row[] | Row | undefined;
