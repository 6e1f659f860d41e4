import type { SqljsStore } from '../../server/store/sqljs-store.ts';

/** Stops the worker and the journal file without a checkpoint: what a crash leaves behind. */
export async function abandon(store: SqljsStore): Promise<void> {
  const loaded = (
    store as unknown as {
      loaded: { client: { terminate(): Promise<void> }; journal: { close(): Promise<void> }; timer: NodeJS.Timeout };
    }
  ).loaded;
  clearInterval(loaded.timer);
  await loaded.journal.close();
  await loaded.client.terminate();
}
