import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './worker-protocol.ts';

type CallMessage = Extract<ToWorker, { id: number }>;
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

interface Waiter {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** Request/response over the worker's ordered message channel, plus "applied up to seq" notices. */
export class WorkerClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly calls = new Map<number, Waiter>();
  /**
   * Waiters for "applied", in increasing seq order (writes register them as they
   * number records): a queue consumed from the front, because every durable write
   * registers one and the worker may be tens of thousands of records behind (a Map
   * scanned per notice was quadratic, and its deleted slots still cost a scan).
   */
  private applied: { seq: number; waiter: Waiter | null }[] = [];
  private appliedHead = 0;
  private exitExpected = false;
  /** Frames journaled in this turn, posted to the worker as one group. */
  private outgoing: Buffer[] = [];
  private outgoingBytes = 0;
  private flushQueued = false;
  /** The highest seq the worker has reported done (applied or failed). */
  appliedUpTo = 0;
  failure: Error | null = null;

  constructor(
    private readonly onFailure: (err: Error) => void,
    private readonly onApplyFailure: (seq: number, message: string) => void,
    private readonly onWarning: (message: string) => void,
  ) {
    this.worker = spawnWorker();
    this.worker.on('message', (m: FromWorker) => this.receive(m));
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', (code) => {
      if (!this.exitExpected) this.fail(new Error(`the database worker exited (code ${code})`));
    });
  }

  call(msg: DistributiveOmit<CallMessage, 'id'>): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    // Records go first: a read issued after a write must see it.
    this.flush();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      this.worker.postMessage({ ...msg, id });
    });
  }

  /**
   * Queues a journaled record (its frame) for the worker. Records journaled together
   * (one journal group settles its appends in one turn) are posted together at the
   * end of the turn, which the worker applies as one transaction. They go as the
   * frames themselves in one buffer that is moved, not cloned: cloning the records'
   * objects (SQL text, parameters) took 15% of the main thread under full load.
   */
  apply(frame: Buffer): void {
    this.outgoing.push(frame);
    this.outgoingBytes += frame.length;
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.flushQueued = false;
    if (this.outgoing.length === 0) return;
    // Its own ArrayBuffer (never the shared pool's), so it can be transferred.
    const frames = Buffer.allocUnsafeSlow(this.outgoingBytes);
    let at = 0;
    for (const f of this.outgoing) at += f.copy(frames, at);
    this.outgoing = [];
    this.outgoingBytes = 0;
    this.worker.postMessage({ t: 'apply', frames } satisfies ToWorker, [frames.buffer]);
  }

  /** Settles once the worker reports `seq` applied (rejects if that record failed). */
  whenApplied(seq: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.applied.push({ seq, waiter: { resolve: () => resolve(), reject } });
    });
  }

  forget(seq: number): void {
    // Rare (a journal write failed): the entry stays in the queue, emptied.
    const entry = this.applied.find((e, i) => i >= this.appliedHead && e.seq === seq);
    if (entry) entry.waiter = null;
  }

  async terminate(): Promise<void> {
    this.exitExpected = true;
    await this.worker.terminate();
  }

  private receive(m: FromWorker): void {
    if (m.t === 'reply') {
      const w = this.calls.get(m.id);
      if (!w) return;
      this.calls.delete(m.id);
      if (m.ok) w.resolve(m.value);
      else w.reject(new Error(m.message));
      return;
    }
    this.appliedUpTo = Math.max(this.appliedUpTo, m.upTo);
    for (const w of m.warnings) this.onWarning(w);
    const failed = new Map(m.failures.map((f) => [f.seq, f.message]));
    for (const [seq, message] of failed) this.onApplyFailure(seq, message);
    while (this.appliedHead < this.applied.length && this.applied[this.appliedHead]!.seq <= m.upTo) {
      const { seq, waiter } = this.applied[this.appliedHead]!;
      this.appliedHead += 1;
      if (!waiter) continue;
      const message = failed.get(seq);
      if (message === undefined) waiter.resolve(undefined);
      else waiter.reject(new Error(message));
    }
    // Drop the consumed front now and then, not on every notice.
    if (this.appliedHead > 1024 && this.appliedHead * 2 > this.applied.length) {
      this.applied = this.applied.slice(this.appliedHead);
      this.appliedHead = 0;
    }
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    const pending = this.applied.slice(this.appliedHead).flatMap((a) => (a.waiter ? [a.waiter] : []));
    for (const w of [...this.calls.values(), ...pending]) w.reject(e);
    this.calls.clear();
    this.applied = [];
    this.appliedHead = 0;
    this.onFailure(e);
  }
}

function spawnWorker(): Worker {
  const self = import.meta.url;
  if (self.endsWith('.ts')) {
    // Running from source under tsx: the worker needs the loader registered first.
    return new Worker(new URL('./worker-boot.mjs', self), {
      workerData: { entry: new URL('./store-worker.ts', self).href },
    });
  }
  return new Worker(new URL('./store-worker.js', self));
}
