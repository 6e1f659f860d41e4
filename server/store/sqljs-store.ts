import { StoreUnavailableError } from '../errors/app-errors.ts';
import type { Clock } from '../support/clock.ts';
import { systemClock } from '../support/clock.ts';
import { ensurePrivateDir } from '../support/private-files.ts';
import { encodeDefinitions, encodeRecord, type JournalRecord } from './journal-codec.ts';
import { StatementCatalogue } from './statement-catalogue.ts';
import { Journal, type JournalOptions, type SyncPolicy } from './journal.ts';
import type {
  BatchResult,
  BlobColumns,
  CheckpointResult,
  FeatureMigrations,
  ReadQuery,
  Row,
  SqlValue,
  Store,
  WriteAck,
  WriteOp,
  WriteReceipt,
} from './store-types.ts';
import { checkMigrationSets } from './migration-plan.ts';
import { WorkerClient } from './worker-client.ts';
import type { OpenResult, WorkerMemory } from './worker-protocol.ts';

export interface SqljsStoreOptions {
  dir: string;
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
  /** Told once the store is loaded: what recovery found (the engine logs it). */
  onLoad?: (info: OpenResult) => void;
  /** How journal segments are opened (tests wrap the handle to inject faults). */
  journalOpenFile?: JournalOptions['openFile'];
  /**
   * Backpressure: while more than this many acknowledged records wait for the
   * database worker, a `durable` write is acknowledged only once it is applied, so
   * the receiver slows to the rate the worker applies instead of holding a growing
   * backlog in memory. Default 1,024: about a tenth of a second of full-speed ingest,
   * and the records held while a checkpoint's export blocks the worker (a bound of
   * 4,096 measured 26 MB more peak memory in a burst at 100,000 logs).
   */
  maxUnappliedWrites?: number;
  /** Tests only: the worker sleeps this long after each group it applies (a throttled worker). */
  applyDelayMs?: number;
}

const DEFAULT_MAX_UNAPPLIED = 1024;

const toError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/** What `load` brings up: the database worker and the journal. */
interface Loaded {
  client: WorkerClient;
  journal: Journal;
  info: OpenResult;
  timer: NodeJS.Timeout;
}

/**
 * sql.js behind a journal (DESIGN.md "Storage and durability"). A write is
 * encoded, appended to the journal with group commit, and only then posted to
 * the database worker, so the worker applies records in journal order and a
 * read issued after an acknowledged write always sees it.
 *
 * Made in two steps: `new SqljsStore(options)` is what repositories hold, and
 * `load(migrations)` opens it. The engine builds its features first (each
 * brings its migrations) and loads the store once it has them all.
 */
export class SqljsStore implements Store {
  private loaded: Loaded | null = null;
  private loading = false;
  private nextSeq = 1;
  private checkpointing: Promise<CheckpointResult> | null = null;
  private lastCheckpointAt = 0;
  private closed = false;
  private readonly hooks: (() => Promise<unknown>)[] = [];
  private readonly maxUnapplied: number;
  /** Statement numbers for the journal's frames (statement-catalogue.ts), for this process's lifetime. */
  private readonly statements = new StatementCatalogue();
  /** The worker has been sent the definitions of statements numbered up to this. */
  private sentToWorker = 0;
  private readonly opts: {
    checkpointBytes: number;
    checkpointIntervalMs: number;
    clock: Clock;
    onError: (e: Error) => void;
    onCheckpoint?: (result: CheckpointResult) => void;
  };

  constructor(private readonly options: SqljsStoreOptions) {
    this.maxUnapplied = options.maxUnappliedWrites ?? DEFAULT_MAX_UNAPPLIED;
    this.opts = {
      checkpointBytes: options.checkpointBytes ?? 64 * 1024 * 1024,
      checkpointIntervalMs: options.checkpointIntervalMs ?? 10 * 60 * 1000,
      clock: options.clock ?? systemClock,
      onError: options.onError ?? ((e: Error) => console.error(`hookscope store: ${e.message}`)),
      onCheckpoint: options.onCheckpoint,
    };
  }

  /** Opens and loads a store in one call (tests and tools that know their migrations up front). */
  static async open(options: SqljsStoreOptions & { migrations: readonly FeatureMigrations[] }): Promise<SqljsStore> {
    const store = new SqljsStore(options);
    await store.load(options.migrations);
    return store;
  }

  /** What recovery found on load (records replayed, torn bytes dropped). */
  get openInfo(): OpenResult {
    return this.need().info;
  }

  /**
   * Loads the snapshot, applies pending migrations, replays the journal and opens
   * it for writing. Once per store; a failure leaves nothing running.
   */
  async load(migrations: readonly FeatureMigrations[]): Promise<void> {
    if (this.loading || this.closed) throw new Error('the store is already loaded or closed');
    this.loading = true;
    checkMigrationSets(migrations);
    const dir = this.options.dir;
    const onError = this.opts.onError;
    await ensurePrivateDir(dir);
    const client = new WorkerClient(
      onError,
      (seq, message) => onError(new Error(`write ${seq} was not applied: ${message}`)),
      (message) => onError(new Error(message)),
    );
    try {
      const info = (await client.call({
        t: 'open',
        dir,
        migrations,
        applyDelayMs: this.options.applyDelayMs,
      })) as OpenResult;
      // The next segment number comes from recovery, so the journal opens after it.
      const journal = await Journal.open({
        dir,
        segment: info.lastSegment + 1,
        sync: this.options.sync ?? 'interval',
        syncIntervalMs: this.options.syncIntervalMs ?? 100,
        onError,
        openFile: this.options.journalOpenFile,
        definitionsAfter: (n) => this.definitionsAfter(n),
      });
      const timer = setInterval(() => void this.maybeCheckpoint(), Math.min(this.opts.checkpointIntervalMs, 30_000));
      timer.unref();
      this.nextSeq = info.lastSeq + 1;
      client.appliedUpTo = info.lastSeq;
      this.lastCheckpointAt = this.opts.clock.now();
      this.loaded = { client, journal, info, timer };
      this.options.onLoad?.(info);
    } catch (e) {
      await client.terminate();
      throw e;
    }
  }

  async write(ops: WriteOp[], ack: WriteAck = 'applied'): Promise<WriteReceipt> {
    const { client, journal } = this.usable();
    const record: JournalRecord = { seq: this.nextSeq++, ops };
    const frame = encodeRecord(record, this.statements);
    const applied = client.whenApplied(record.seq);
    // A failure to apply is reported by the worker client; `settled` only says it is over.
    const settled = applied.then(
      () => undefined,
      () => undefined,
    );
    try {
      await journal.append(frame);
    } catch (e) {
      client.forget(record.seq);
      throw new StoreUnavailableError(`The journal could not be written: ${toError(e).message}`);
    }
    // Append promises settle in journal order, so records reach the worker in that order
    // too, each after the definitions of the statements it names.
    const definitions = this.definitionsAfter(this.sentToWorker);
    if (definitions) {
      client.apply(definitions.frame);
      this.sentToWorker = definitions.upTo;
    }
    client.apply(frame);
    if (journal.bytesSinceRotate >= this.opts.checkpointBytes) void this.maybeCheckpoint();
    if (ack === 'applied') {
      await applied.catch((e: unknown) => {
        throw new StoreUnavailableError(`The write was not applied: ${toError(e).message}`);
      });
    } else if (record.seq - client.appliedUpTo > this.maxUnapplied) {
      // Behind: this acknowledgement waits for the worker (a failure is reported as usual).
      await settled;
    }
    return { settled };
  }

  private definitionsAfter(n: number): { frame: Buffer; upTo: number } | null {
    if (this.statements.size <= n) return null;
    return { frame: encodeDefinitions(this.statements.definitionsAfter(n)), upTo: this.statements.size };
  }

  /** Records journaled but not yet applied (or failed) by the database worker. */
  get backlog(): number {
    const loaded = this.loaded;
    return loaded ? this.nextSeq - 1 - loaded.client.appliedUpTo : 0;
  }

  async all<T extends object = Row>(sql: string, params: SqlValue[] = [], blob?: BlobColumns): Promise<T[]> {
    return (await this.usable().client.call({ t: 'query', sql, params, one: false, blob })) as T[];
  }

  async get<T extends object = Row>(sql: string, params: SqlValue[] = [], blob?: BlobColumns): Promise<T | undefined> {
    return (await this.usable().client.call({ t: 'query', sql, params, one: true, blob })) as T | undefined;
  }

  async batch<const Q extends readonly ReadQuery[]>(queries: Q): Promise<BatchResult<Q>> {
    return (await this.usable().client.call({ t: 'batch', queries: [...queries] })) as BatchResult<Q>;
  }

  /** The database worker's memory (for the benchmark and tests; not part of `Store`). */
  async workerMemory(): Promise<WorkerMemory> {
    return (await this.usable().client.call({ t: 'memory' })) as WorkerMemory;
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
    const { client, journal } = this.usable();
    this.checkpointing ??= (async () => {
      for (const hook of this.hooks) await hook().catch((e: unknown) => this.opts.onError(toError(e)));
      this.lastCheckpointAt = this.opts.clock.now();
      const closedSegment = await journal.rotate();
      const result = (await client.call({ t: 'checkpoint' })) as CheckpointResult;
      await journal.deleteSegmentsThrough(closedSegment);
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
    const loaded = this.loaded;
    if (!loaded) {
      this.closed = true;
      return;
    }
    const { client, journal, timer } = loaded;
    clearInterval(timer);
    if (!client.failure) await this.checkpoint().catch((e: unknown) => this.opts.onError(toError(e)));
    this.closed = true;
    await journal.close().catch((e: unknown) => this.opts.onError(toError(e)));
    if (!client.failure) await client.call({ t: 'close' }).catch(() => undefined);
    await client.terminate();
  }

  private async maybeCheckpoint(): Promise<void> {
    const loaded = this.loaded;
    if (!loaded || this.closed || this.checkpointing || loaded.client.failure) return;
    const bySize = loaded.journal.bytesSinceRotate >= this.opts.checkpointBytes;
    const byTime =
      loaded.journal.bytesSinceRotate > 0 &&
      this.opts.clock.now() - this.lastCheckpointAt >= this.opts.checkpointIntervalMs;
    if (!bySize && !byTime) return;
    await this.checkpoint().catch((e: unknown) => this.opts.onError(toError(e)));
  }

  private need(): Loaded {
    if (!this.loaded) throw new StoreUnavailableError('The store is not loaded yet.');
    return this.loaded;
  }

  private usable(): Loaded {
    if (this.closed) throw new StoreUnavailableError('The store is closed.');
    const loaded = this.need();
    if (loaded.client.failure)
      throw new StoreUnavailableError(`The store is unavailable: ${loaded.client.failure.message}`);
    return loaded;
  }
}
