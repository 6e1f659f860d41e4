import type { SqljsStore } from '../../server/store/sqljs-store.ts';
import { abandon } from './abandon-store.ts';

/**
 * What a test opened and has not closed yet, closed in its `finally`: after a failed
 * assertion, a store's worker thread or a journal's file handle left open would keep
 * the process alive, and the file would hang instead of failing.
 */
export class Opened {
  private readonly open = new Set<{ close(): Promise<void> }>();

  add<T extends { close(): Promise<void> }>(resource: T): T {
    this.open.add(resource);
    return resource;
  }

  async close(resource: { close(): Promise<void> }): Promise<void> {
    this.open.delete(resource);
    await resource.close();
  }

  /** A crash: the store is left without a checkpoint, its worker stopped. */
  async abandon(store: SqljsStore): Promise<void> {
    this.open.delete(store);
    await abandon(store);
  }

  /** Empty when the test went through: it closed everything itself, and those errors count. */
  async closeRest(): Promise<void> {
    for (const resource of this.open) await resource.close().catch(() => undefined);
    this.open.clear();
  }
}
