import type { BodyReader } from '../../logs/log-search.ts';
import { MAX_INDEXED_BODY, ROWS_PER_LOG, UNINDEXED_WORD } from '../../logs/search-index.ts';
import type { Store } from '../../store/store-types.ts';
import { searchIndexOpBySeq } from './search-index-sqljs.ts';

/** Logs indexed per read and write: small enough that deliveries queued behind a batch barely wait. */
const BATCH = 200;

/**
 * Indexes the logs that have only the unindexed row: those stored before the search
 * index existed (the migration gave them that row), and any an old journal replayed.
 * Until then they are candidates for every search and checked exactly, so results are
 * right meanwhile, only slower. Runs in the background from start, newest logs first,
 * one batch at a time; SQL migrations cannot do it (the signature is computed here).
 * sql.js only: a PostgreSQL database has no logs from before the index (its logs are
 * indexed by the insert), so the engine starts this only with the sql.js backend.
 */
export class SearchBackfill {
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly readBodies: BodyReader,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    this.running ??= this.run().catch((err: unknown) => {
      if (!this.stopped) this.onError(err);
    });
  }

  /** Stops after the batch in hand; resolves once it is written. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** Done for now: every log is indexed (tests await it). */
  async idle(): Promise<void> {
    await this.running;
  }

  private async run(): Promise<void> {
    // Keyset by key, downwards: one pass over the index in all.
    let below = Number.MAX_SAFE_INTEGER;
    while (!this.stopped) {
      const rows = await this.store.all<{ key: number; seq: number; path: string; raw_headers: string; size: number }>(
        `SELECT s.key, l.seq, l.path, l.raw_headers, l.stored_size AS size
         FROM log_search s JOIN logs l ON l.seq = s.key / ${ROWS_PER_LOG}
         WHERE s.key < ? AND s.w0 = ${UNINDEXED_WORD} ORDER BY s.key DESC LIMIT ${BATCH}`,
        [below],
      );
      if (rows.length === 0) return;
      below = rows[rows.length - 1]!.key;
      // A body too large to index is not read: its log keeps a full row (memory stays bounded).
      const bodies = await this.readBodies(rows.filter((r) => r.size <= MAX_INDEXED_BODY).map((r) => r.seq));
      await this.store.write(
        rows.map((r) => searchIndexOpBySeq(r.seq, r.path, r.raw_headers, bodies.get(r.seq))),
        'applied',
      );
    }
  }
}
