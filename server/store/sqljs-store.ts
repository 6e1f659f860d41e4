import { StoreUnavailableError } from '../errors/app-errors.ts';
import type { Clock } from '../support/clock.ts';
import { systemClock } from '../support/clock.ts';
import { ensurePrivateDir } from '../support/private-files.ts';
import { encodeRecord, type JournalRecord } from './journal-codec.ts';
import { Journal, type JournalOptions, type SyncPolicy } from './journal.ts';
import type {
  BatchResult,
  CheckpointResult,
  Migration,
  ReadQuery,
  Row,
  SqlValue,
  Store,
  WriteAck,
  WriteOp,
  WriteReceipt,
} from './store-types.ts';
import { WorkerClient } from './worker-client.ts';
import type { OpenResult } from './worker-protocol.ts';

export interface SqljsStoreOptions {
  dir: string;
  migrations: Migration[];
  sync?: SyncPolicy;
  syncIntervalMs?: number;
  /** Checkpoint once the journal has grown by this many bytes... */
  checkpointBytes?: number;
  /** ...or this long after the last checkpoint, if anything was written since. */
  checkpointIntervalMs?: number;
  clock?: Clock;
  onError?: (err: Error) => void;
  /** Told after every checkpoint, periodic and final ones included (the engine logs them). */
  onCheckpoint?: (result: CheckpointResult) => void;
  /** How journal segments are opened (tests wrap the handle to inject faults). */
  journalOpenFile?: JournalOptions['openFile'];
}

const toError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/**
 * sql.js behind a journal (DESIGN.md "Storage and durability"). A write is
 * encoded, appended to the journal with group commit, and only then posted to
 * the database worker, so the worker applies records in journal order and a
 * read issued after an acknowledged write always sees it.
 */
export class SqljsStore implements Store {
  private nextSeq: number;
  private checkpointing: Promise<CheckpointResult> | null = null;
  private lastCheckpointAt: number;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  private readonly hooks: (() => Promise<unknown>)[] = [];

  private constructor(
    private readonly client: WorkerClient,
    private readonly journal: Journal,
    readonly openInfo: OpenResult,
    private readonly opts: {
      checkpointBytes: number;
      checkpointIntervalMs: number;
      clock: Clock;
      onError: (e: Error) => void;
      onCheckpoint?: (result: CheckpointResult) => void;
    },
  ) {
    this.nextSeq = openInfo.lastSeq + 1;
    this.lastCheckpointAt = opts.clock.now();
    this.timer = setInterval(() => void this.maybeCheckpoint(), Math.min(opts.checkpointIntervalMs, 30_000));
    this.timer.unref();
  }

  static async open(options: SqljsStoreOptions): Promise<SqljsStore> {
    const onError = options.onError ?? ((e: Error) => console.error(`hookscope store: ${e.message}`));
    await ensurePrivateDir(options.dir);
    const client = new WorkerClient(onError, (seq, message) =>
      onError(new Error(`write ${seq} was not applied: ${message}`)),
    );
    try {
      const info = (await client.call({ t: 'open', dir: options.dir, migrations: options.migrations })) as OpenResult;
      // The next segment number comes from recovery, so the journal opens after it.
      const journal = await Journal.open({
        dir: options.dir,
        segment: info.lastSegment + 1,
        sync: options.sync ?? 'interval',
        syncIntervalMs: options.syncIntervalMs ?? 100,
        onError,
        openFile: options.journalOpenFile,
      });
      return new SqljsStore(client, journal, info, {
        checkpointBytes: options.checkpointBytes ?? 64 * 1024 * 1024,
        checkpointIntervalMs: options.checkpointIntervalMs ?? 10 * 60 * 1000,
        clock: options.clock ?? systemClock,
        onError,
        onCheckpoint: options.onCheckpoint,
      });
    } catch (e) {
      await client.terminate();
      throw e;
    }
  }

  async write(ops: WriteOp[], ack: WriteAck = 'applied'): Promise<WriteReceipt> {
    this.assertUsable();
    const record: JournalRecord = { seq: this.nextSeq++, ops };
    const frame = encodeRecord(record);
    const applied = this.client.whenApplied(record.seq);
    // A failure to apply is reported by the worker client; `settled` only says it is over.
    const settled = applied.then(
      () => undefined,
      () => undefined,
    );
    try {
      await this.journal.append(frame);
    } catch (e) {
      this.client.forget(record.seq);
      throw new StoreUnavailableError(`The journal could not be written: ${toError(e).message}`);
    }
    // Append promises settle in journal order, so records reach the worker in that order too.
    this.client.apply(record);
    if (this.journal.bytesSinceRotate >= this.opts.checkpointBytes) void this.maybeCheckpoint();
    if (ack === 'applied') {
      await applied.catch((e: unknown) => {
        throw new StoreUnavailableError(`The write was not applied: ${toError(e).message}`);
      });
    }
    return { settled };
  }

  async all<T extends object = Row>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    this.assertUsable();
    return (await this.client.call({ t: 'query', sql, params, one: false })) as T[];
  }

  async get<T extends object = Row>(sql: string, params: SqlValue[] = []): Promise<T | undefined> {
    this.assertUsable();
    return (await this.client.call({ t: 'query', sql, params, one: true })) as T | undefined;
  }

  async batch<const Q extends readonly ReadQuery[]>(queries: Q): Promise<BatchResult<Q>> {
    this.assertUsable();
    return (await this.client.call({ t: 'batch', queries: [...queries] })) as BatchResult<Q>;
  }

  beforeCheckpoint(hook: () => Promise<unknown>): void {
    this.hooks.push(hook);
  }

  /**
   * Runs the before-checkpoint hooks, rotates the journal, snapshots the database
   * in the worker, then deletes the rotated segments. Records written meanwhile go
   * to the new segment and stay.
   */
  checkpoint(): Promise<CheckpointResult> {
    this.assertUsable();
    this.checkpointing ??= (async () => {
      for (const hook of this.hooks) await hook().catch((e: unknown) => this.opts.onError(toError(e)));
      this.lastCheckpointAt = this.opts.clock.now();
      const closedSegment = await this.journal.rotate();
      const result = (await this.client.call({ t: 'checkpoint' })) as CheckpointResult;
      await this.journal.deleteSegmentsThrough(closedSegment);
      this.opts.onCheckpoint?.(result);
      return result;
    })().finally(() => {
      this.checkpointing = null;
    });
    return this.checkpointing;
  }

  /** Checkpoints (so the next start loads one snapshot and no journal), then stops the worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    clearInterval(this.timer);
    if (!this.client.failure) await this.checkpoint().catch((e: unknown) => this.opts.onError(toError(e)));
    this.closed = true;
    await this.journal.close().catch((e: unknown) => this.opts.onError(toError(e)));
    if (!this.client.failure) await this.client.call({ t: 'close' }).catch(() => undefined);
    await this.client.terminate();
  }

  private async maybeCheckpoint(): Promise<void> {
    if (this.closed || this.checkpointing || this.client.failure) return;
    const bySize = this.journal.bytesSinceRotate >= this.opts.checkpointBytes;
    const byTime =
      this.journal.bytesSinceRotate > 0 &&
      this.opts.clock.now() - this.lastCheckpointAt >= this.opts.checkpointIntervalMs;
    if (!bySize && !byTime) return;
    await this.checkpoint().catch((e: unknown) => this.opts.onError(toError(e)));
  }

  private assertUsable(): void {
    if (this.closed) throw new StoreUnavailableError('The store is closed.');
    if (this.client.failure)
      throw new StoreUnavailableError(`The store is unavailable: ${this.client.failure.message}`);
  }
}
