import { setTimeout as sleepFor } from 'node:timers/promises';
import type { BodyReader } from '../../logs/log-search.ts';
import { MAX_INDEXED_BODY, ROWS_PER_LOG, SPILLED_MAX_INDEXED_BODY, UNINDEXED_WORD } from '../../logs/search-index.ts';
import type { Store, WriteOp } from '../../store/store-types.ts';
import { searchIndexOpsBySeq } from './search-index-sqljs.ts';
import { STORED_HEADERS } from './stored-headers-sqljs.ts';

/** Logs indexed per read and write: small enough that deliveries queued behind a batch barely wait. */
const BATCH = 200;

/**
 * The next batch of rows to index above a key, oldest first: read through log_search_unindexed
 * alone. In key order because a log's rows replace its small unindexed row and add rows after
 * it: written upwards they fill the table's pages as appends do, while written downwards each
 * batch split pages in the middle and left them about half full (measured, 100,000 deliveries
 * indexed after a burst: log_search 591 bytes a delivery downwards, about 400 upwards).
 */
export const UNINDEXED_ABOVE = `SELECT s.key, l.seq, l.path, ${STORED_HEADERS} AS raw_headers, l.stored_size AS size
  FROM log_search s JOIN logs l ON l.seq = s.key / ${ROWS_PER_LOG}
  WHERE s.w0 = ${UNINDEXED_WORD} AND s.key > ? ORDER BY s.key LIMIT ${BATCH}`;

/** When the indexer looks, and when it leaves the cores to deliveries. */
export interface IndexPacing {
  /** How long after a delivery it looks (later deliveries are counted, they do not push it back). */
  delayMs: number;
  /** More deliveries than this within one delay: ingest runs at full speed, and indexing waits for it to slow... */
  busyDeliveries: number;
  /** ...unless this many logs wait: every search checks them exactly (reads their bodies) until they are indexed. */
  maxUnindexed: number;
}

/**
 * 250 ms; 250 deliveries in it is 1,000 a second, far above what a person or a provider's
 * retries send (the default rate limit is 1,000 a second per endpoint), so indexing stays
 * current in use and waits only during a flood. 20,000 unindexed logs cost a search about
 * 0.1-0.2 s of exact checks (5 us per KB).
 */
export const DEFAULT_INDEX_PACING: IndexPacing = { delayMs: 250, busyDeliveries: 250, maxUnindexed: 20_000 };

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

// Stopping ends a sleep at once (the rejection it gives is the stop, not a fault).
const abortableSleep: Sleep = (ms, signal) => sleepFor(ms, undefined, { signal }).catch(() => undefined);

/**
 * The text-search index of the embedded store, kept off the receiver's path. A
 * delivery is stored with the unindexed row (the logs_search_unindexed trigger),
 * which every search probe passes, so it is found from the start: a search checks
 * such logs exactly. This indexes them in the background, oldest first, one batch
 * at a time, a moment after deliveries come, and waits while they come at full
 * speed. Measured (issue 25): the signatures, their journaling and their rows cost
 * about 30 us of the ~145 us a delivery took across both threads; deferred, a burst
 * is received that much faster and indexed once it ends. The same pass indexes the
 * logs stored before the index existed (the migration gave them that row) and any
 * an old journal replayed. sql.js only: PostgreSQL indexes each log in its insert,
 * where the database, not the engine, does the work.
 */
export class SearchBackfill {
  private running: Promise<void> | null = null;
  private readonly stopping = new AbortController();
  /** Deliveries since the indexer last looked at the pace: how busy ingest is. */
  private recent = 0;
  /** Deliveries not indexed yet, as far as this process counts them (logs from before start are not counted). */
  private waiting = 0;
  /** Deliveries noted in all, and how many had been when the current (or last) pass began. */
  private delivered = 0;
  private lookedAt = 0;
  private wake: (() => void) | null = null;
  /** The loop has ended (stopped, or failed and reported). */
  private ended = false;
  private idleWaiters: (() => void)[] = [];
  private readonly sleep: Sleep;

  constructor(
    private readonly store: Store,
    private readonly readBodies: BodyReader,
    private readonly onError: (err: unknown) => void,
    private readonly pacing: IndexPacing = DEFAULT_INDEX_PACING,
    sleep?: Sleep,
  ) {
    this.sleep = sleep ?? abortableSleep;
  }

  start(): void {
    this.running ??= this.run()
      .catch((err: unknown) => {
        if (!this.stopping.signal.aborted) this.onError(err);
      })
      .finally(() => {
        this.ended = true;
        this.settle();
      });
  }

  /** A delivery was stored (not indexed): called by the logs repository at each insert. */
  noteDelivery(): void {
    this.delivered++;
    this.recent++;
    this.waiting++;
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Stops after the batch in hand; resolves once it is written. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake?.();
    await this.running;
  }

  /** Resolves once every log is indexed and no delivery is waiting (tests await it). */
  idle(): Promise<void> {
    if (!this.running || this.ended || this.wake !== null) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private settle(): void {
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async run(): Promise<void> {
    const { signal } = this.stopping;
    while (!signal.aborted) {
      await this.indexAll();
      if (signal.aborted) return;
      // Deliveries noted since the pass began may have come after its last read: look again.
      this.waiting = this.delivered - this.lookedAt;
      if (this.waiting === 0) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          this.settle();
        });
        if (signal.aborted) return;
      }
      await this.pace(true);
    }
  }

  /**
   * Waits while deliveries come faster than the pace allows; past maxUnindexed, one delay
   * per batch even then (bounded: a flood is received at nearly full speed, and searches
   * do not get slower without end). `first`: waits one delay in any case (after a
   * delivery, so a burst's start is not indexed one log at a time).
   */
  private async pace(first: boolean): Promise<void> {
    const { signal } = this.stopping;
    let slept = false;
    while (!signal.aborted) {
      if (slept || !first) {
        if (this.recent <= this.pacing.busyDeliveries) return;
        if (slept && this.waiting >= this.pacing.maxUnindexed) return;
      }
      this.recent = 0;
      await this.sleep(this.pacing.delayMs, signal);
      slept = true;
    }
  }

  /** One pass up the unindexed rows (the log_search_unindexed index holds only those), oldest first. */
  private async indexAll(): Promise<void> {
    const { signal } = this.stopping;
    // Keyset by key, upwards: a row that cannot be indexed (its log went meanwhile) is passed, not read again.
    // The pass goes on into what is stored while it runs; run() starts another pass for the
    // deliveries noted since it began (`lookedAt`), which finds none left when this one took them.
    let above = Number.MIN_SAFE_INTEGER;
    this.lookedAt = this.delivered;
    while (!signal.aborted) {
      const rows = await this.store.all<{ key: number; seq: number; path: string; raw_headers: string; size: number }>(
        UNINDEXED_ABOVE,
        [above],
      );
      if (rows.length === 0) return;
      above = rows[rows.length - 1]!.key;
      // Bodies over MAX_INDEXED_BODY are read one at a time (a batch of them could be 200 MB);
      // one too large to index is not read: its log keeps a full row (memory stays bounded).
      const bodies = await this.readBodies(rows.filter((r) => r.size <= MAX_INDEXED_BODY).map((r) => r.seq));
      const ops: WriteOp[] = [];
      for (const r of rows) {
        const body =
          r.size <= MAX_INDEXED_BODY
            ? bodies.get(r.seq)
            : r.size <= SPILLED_MAX_INDEXED_BODY
              ? (await this.readBodies([r.seq])).get(r.seq)
              : undefined;
        ops.push(...searchIndexOpsBySeq(r.seq, r.path, r.raw_headers, body));
      }
      await this.store.write(ops, 'applied');
      this.waiting = Math.max(0, this.waiting - rows.length);
      // The pass ends at its last batch; logs stored after it are the next pass's.
      if (rows.length < BATCH) return;
      await this.pace(false);
    }
  }
}
