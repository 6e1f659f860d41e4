import { unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { openPrivateFile } from '../support/private-files.ts';
import { listSegments, segmentName } from './journal-files.ts';

export type SyncPolicy = 'interval' | 'strict';

export interface JournalOptions {
  dir: string;
  /** First segment number to write (one past the highest found at recovery). */
  segment: number;
  sync: SyncPolicy;
  /** With `interval`: how often written data is fdatasync'ed. */
  syncIntervalMs: number;
  onError: (err: Error) => void;
  /**
   * Opens a segment for appending. The default leaves it 0600 (the journal holds
   * endpoint secrets); tests pass a wrapper that injects write and sync faults.
   */
  openFile?: (path: string) => Promise<FileHandle>;
  /**
   * The statement definitions (statement-catalogue.ts) numbered after `n`, as one
   * frame, and the highest number in it; null when there are none. Each group is
   * written with the definitions its segment lacks in front of it.
   */
  definitionsAfter?: (n: number) => { frame: Buffer; upTo: number } | null;
}

const openSegmentFile = (path: string): Promise<FileHandle> => openPrivateFile(path, 'a');

interface Pending {
  frame: Buffer;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * Append-only journal with group commit. Frames appended while a write is in
 * flight are written together by the next single `writev`, and every frame's
 * promise settles once its bytes are in the file (and fdatasync'ed first under
 * `strict`). Under `interval` a timer fdatasyncs at most every syncIntervalMs:
 * an acknowledged write survives a crash of the process, and an OS crash can
 * lose at most that window (the trade-off of Redis' appendfsync everysec).
 */
export class Journal {
  private handle!: FileHandle;
  private segment: number;
  private size = 0;
  private pending: Pending[] = [];
  private writing: Promise<void> | null = null;
  private flushScheduled = false;
  private dirty = false;
  private syncing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Set while the handle is being closed (rotate, close): the sync timer must not touch it. */
  private swapping = false;
  private closed = false;
  /** Statement numbers up to this one are defined in the current segment. */
  private definedUpTo = 0;
  /** Bytes appended since the last rotation, used to trigger checkpoints by size. */
  bytesSinceRotate = 0;

  private constructor(private readonly opts: JournalOptions) {
    this.segment = opts.segment;
  }

  static async open(opts: JournalOptions): Promise<Journal> {
    const j = new Journal(opts);
    await j.openSegment();
    if (opts.sync === 'interval') {
      j.timer = setInterval(() => void j.syncIfDirty(), opts.syncIntervalMs);
      j.timer.unref();
    }
    return j;
  }

  get currentSegment(): number {
    return this.segment;
  }

  append(frame: Buffer): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The journal is closed.'));
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ frame, resolve, reject });
      this.bytesSinceRotate += frame.length;
      this.scheduleFlush();
    });
  }

  /** Closes the current segment (synced) and starts the next; returns the number of the closed one. */
  async rotate(): Promise<number> {
    await this.drain();
    this.swapping = true;
    try {
      await this.syncing;
      const closed = this.segment;
      await this.handle.datasync();
      await this.handle.close();
      this.segment += 1;
      this.bytesSinceRotate = 0;
      await this.openSegment();
      return closed;
    } finally {
      this.swapping = false;
      // Appends that arrived while the handle was swapped wait for the new segment.
      if (this.pending.length > 0) this.scheduleFlush();
    }
  }

  /** Deletes segments up to and including `upTo` (their content is in a snapshot now). */
  async deleteSegmentsThrough(upTo: number): Promise<void> {
    for (const s of await listSegments(this.opts.dir)) {
      if (s.n <= upTo) await unlink(s.path).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.drain();
    this.swapping = true;
    await this.syncing;
    await this.handle.datasync().catch(() => undefined);
    await this.handle.close();
    this.closed = true;
    for (const p of this.pending.splice(0)) p.reject(new Error('The journal is closed.'));
  }

  /** Waits until nothing is pending or in flight. */
  async drain(): Promise<void> {
    while (this.writing || this.pending.length > 0) {
      if (this.swapping) {
        await new Promise((r) => setImmediate(r));
        continue;
      }
      if (!this.writing) this.flush();
      await this.writing?.catch(() => undefined);
    }
  }

  private async openSegment(): Promise<void> {
    this.handle = await (this.opts.openFile ?? openSegmentFile)(join(this.opts.dir, segmentName(this.segment)));
    this.size = (await this.handle.stat()).size;
    // A segment is read on its own at recovery: it defines every statement it uses.
    this.definedUpTo = 0;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.writing) return;
    this.flushScheduled = true;
    // setImmediate runs after the current poll phase, so every request that
    // finished in this turn of the event loop joins the same group.
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.writing || this.swapping || this.pending.length === 0) return;
    const group = this.pending;
    this.pending = [];
    this.writing = this.writeGroup(group).finally(() => {
      this.writing = null;
      if (this.pending.length > 0) this.scheduleFlush();
    });
  }

  private async writeGroup(group: Pending[]): Promise<void> {
    const frames = group.map((p) => p.frame);
    // Every frame in the group was encoded before this point, so any number it uses is
    // defined here or earlier in the segment. In the group's own write, so a failed
    // write, cut back, takes these definitions with it and the next group repeats them.
    const definitions = this.opts.definitionsAfter?.(this.definedUpTo) ?? null;
    if (definitions) frames.unshift(definitions.frame);
    const bytes = frames.reduce((n, f) => n + f.length, 0);
    try {
      let written = 0;
      // writev may write partially; continue until every byte is in the file.
      while (written < bytes) {
        const { bytesWritten } = await this.handle.writev(sliceFrom(frames, written), this.size + written);
        written += bytesWritten;
      }
      if (this.opts.sync === 'strict') await this.handle.datasync();
      this.size += bytes;
      if (definitions) this.definedUpTo = definitions.upTo;
      this.dirty = true;
      for (const p of group) p.resolve();
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      // Cut back to the last whole group so later frames never sit behind a torn one
      // (recovery stops at the first bad frame and would drop them).
      await this.handle.truncate(this.size).catch(() => undefined);
      for (const p of group) p.reject(err);
      this.opts.onError(err);
    }
  }

  private async syncIfDirty(): Promise<void> {
    if (!this.dirty || this.syncing || this.swapping) return;
    this.dirty = false;
    this.syncing = this.handle
      .datasync()
      .catch((e: unknown) => this.opts.onError(e instanceof Error ? e : new Error(String(e))))
      .finally(() => {
        this.syncing = null;
      });
    await this.syncing;
  }
}

function sliceFrom(frames: Buffer[], offset: number): Buffer[] {
  if (offset === 0) return frames;
  const out: Buffer[] = [];
  let skip = offset;
  for (const f of frames) {
    if (skip >= f.length) {
      skip -= f.length;
      continue;
    }
    out.push(skip > 0 ? f.subarray(skip) : f);
    skip = 0;
  }
  return out;
}
