import assert from 'node:assert/strict';
import { readFile, stat, type FileHandle } from 'node:fs/promises';
import { ITEMS_TABLE } from '../../helpers/items-table.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { Opened } from '../../helpers/opened.ts';
import { StoreUnavailableError } from '../../../server/errors/app-errors.ts';
import { decodeRecords, encodeRecord } from '../../../server/store/journal-codec.ts';
import { listSegments } from '../../../server/store/journal-files.ts';
import { Journal, type SyncPolicy } from '../../../server/store/journal.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import type { FeatureMigrations } from '../../../server/store/store-types.ts';
import { openPrivateFile } from '../../../server/support/private-files.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

/**
 * Faults injected under the journal's file handle: a writev that writes half of
 * its bytes and then fails (a full disk, EIO), or an fdatasync that fails. The
 * journal must reject the group, cut the file back to the last whole group, and
 * keep appending correctly afterwards, across a restart.
 */

type Fault = 'half-write' | 'sync-fails';

/** Arms faults on the segment handles the journal opens; each armed fault fires once. */
class FaultyFiles {
  private armed: Fault | null = null;
  injected = 0;

  arm(fault: Fault): void {
    this.armed = fault;
  }

  open = async (path: string): Promise<FileHandle> => {
    const handle = await openPrivateFile(path, 'a');
    return new Proxy(handle, {
      get: (target, prop) => {
        if (prop === 'writev' && this.armed === 'half-write') {
          return async (buffers: Buffer[], position?: number) => {
            this.armed = null;
            this.injected++;
            const all = Buffer.concat(buffers);
            await target.writev([all.subarray(0, Math.floor(all.length / 2))], position);
            throw Object.assign(new Error('EIO: injected write fault'), { code: 'EIO' });
          };
        }
        if (prop === 'datasync' && this.armed === 'sync-fails') {
          return async () => {
            this.armed = null;
            this.injected++;
            throw Object.assign(new Error('EIO: injected sync fault'), { code: 'EIO' });
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
}

/** A record whose payload carries `pad` bytes, so frames can be made small or large. */
const frame = (seq: number, pad = 0): Buffer =>
  encodeRecord({
    seq,
    ops: [{ sql: 'INSERT INTO items (name, data) VALUES (?, ?)', params: [`item-${seq}`, Buffer.alloc(pad, seq)] }],
  });

async function onlySegment(dir: string): Promise<string> {
  const segments = await listSegments(dir);
  assert.equal(segments.length, 1);
  return segments[0]!.path;
}

async function seqsOnDisk(dir: string): Promise<number[]> {
  const out: number[] = [];
  for (const s of await listSegments(dir)) out.push(...decodeRecords(await readFile(s.path)).records.map((r) => r.seq));
  return out;
}

const tempDir = tempDirs('hookscope-journal-faults-');

async function openJournal(dir: string, files: FaultyFiles, sync: SyncPolicy, errors: Error[]): Promise<Journal> {
  return Journal.open({
    dir,
    segment: 1,
    sync,
    syncIntervalMs: 60_000,
    onError: (e) => errors.push(e),
    openFile: files.open,
  });
}

describe('journal faults', () => {
  test('a half-written group is rejected and cut off, so none of its frames comes back after a restart', async () => {
    const dir = await tempDir();
    const files = new FaultyFiles();
    const errors: Error[] = [];
    const opened = new Opened();
    try {
      const journal = opened.add(await openJournal(dir, files, 'interval', errors));
      const f1 = frame(1);
      await journal.append(f1);

      // One group of a small frame and a large one: half of the group's bytes holds frame 2
      // whole, which a restart would recover if the torn bytes stayed in the file.
      const f2 = frame(2);
      const f3 = frame(3, 4096);
      assert.ok(Math.floor((f2.length + f3.length) / 2) > f2.length, 'the half write covers frame 2 entirely');
      files.arm('half-write');
      const results = await Promise.allSettled([journal.append(f2), journal.append(f3)]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['rejected', 'rejected'],
      );
      assert.equal(files.injected, 1);
      assert.deepEqual(
        errors.map((e) => e.message),
        ['EIO: injected write fault'],
      );
      assert.equal((await stat(await onlySegment(dir))).size, f1.length, 'the file ends at the last whole group');

      await opened.close(journal);
      assert.deepEqual(await seqsOnDisk(dir), [1]);
    } finally {
      await opened.closeRest();
    }
  });

  test('appends after a half-written group land right after the last whole group and survive a restart', async () => {
    const dir = await tempDir();
    const files = new FaultyFiles();
    const opened = new Opened();
    try {
      const journal = opened.add(await openJournal(dir, files, 'interval', []));
      const f1 = frame(1, 100);
      await journal.append(f1);
      files.arm('half-write');
      await assert.rejects(journal.append(frame(2, 8192)), /injected write fault/);
      // Smaller than the torn bytes: had they stayed, this frame would sit behind them
      // (the segment is opened for appending) and recovery would stop before it.
      const f3 = frame(3);
      await journal.append(f3);
      const f4 = frame(4);
      await journal.append(f4);
      assert.equal((await stat(await onlySegment(dir))).size, f1.length + f3.length + f4.length);
      await opened.close(journal);
      assert.deepEqual(await seqsOnDisk(dir), [1, 3, 4]);
    } finally {
      await opened.closeRest();
    }
  });

  test('under strict sync a failed fdatasync rejects the group and cuts it off; later groups survive', async () => {
    const dir = await tempDir();
    const files = new FaultyFiles();
    const errors: Error[] = [];
    const opened = new Opened();
    try {
      const journal = opened.add(await openJournal(dir, files, 'strict', errors));
      const f1 = frame(1);
      await journal.append(f1);
      files.arm('sync-fails');
      const f2 = frame(2, 300);
      await assert.rejects(journal.append(f2), /injected sync fault/);
      assert.equal(files.injected, 1);
      assert.equal((await stat(await onlySegment(dir))).size, f1.length, 'the unsynced group is not left in the file');
      const f3 = frame(3);
      await journal.append(f3);
      assert.equal((await stat(await onlySegment(dir))).size, f1.length + f3.length);
      await opened.close(journal);
      assert.deepEqual(await seqsOnDisk(dir), [1, 3]);
      assert.deepEqual(
        errors.map((e) => e.message),
        ['EIO: injected sync fault'],
      );
    } finally {
      await opened.closeRest();
    }
  });
});

describe('store over a failing journal', () => {
  const migrations: FeatureMigrations[] = [
    {
      feature: 'items',
      migrations: [ITEMS_TABLE],
    },
  ];
  const insert = (name: string, bytes = 0) => [
    { sql: 'INSERT INTO items (name, data) VALUES (?, ?)', params: [name, Buffer.alloc(bytes, 7)] },
  ];
  const openFaulty = (dir: string, files: FaultyFiles, sync: SyncPolicy): Promise<SqljsStore> =>
    SqljsStore.open({ dir, migrations, sync, journalOpenFile: files.open, onError: () => undefined });
  const names = async (store: SqljsStore): Promise<string[]> =>
    (await store.all<{ name: string }>('SELECT name FROM items ORDER BY id')).map((r) => r.name);

  for (const [fault, sync] of [
    ['half-write', 'interval'],
    ['sync-fails', 'strict'],
  ] as const) {
    test(`a ${fault} under ${sync} sync surfaces as StoreUnavailableError; every acknowledged write survives a crash and a clean restart`, async () => {
      const dir = await tempDir();
      const files = new FaultyFiles();
      const opened = new Opened();
      try {
        const store = opened.add(await openFaulty(dir, files, sync));
        await store.write(insert('first'), 'durable');
        await store.write(insert('second', 50), 'applied');
        files.arm(fault);
        await assert.rejects(store.write(insert('lost', 6000), 'applied'), (e: unknown) => {
          assert.ok(e instanceof StoreUnavailableError, String(e));
          assert.match(e.message, /The journal could not be written: EIO: injected/);
          return true;
        });
        await store.write(insert('third'), 'durable');
        await store.write(insert('fourth', 10), 'applied');
        assert.deepEqual(await names(store), ['first', 'second', 'third', 'fourth']);

        // A crash: no checkpoint, so everything must come back from the journal.
        await opened.abandon(store);
        const afterCrash = opened.add(await SqljsStore.open({ dir, migrations }));
        assert.equal(afterCrash.openInfo.tornBytes, 0);
        assert.equal(afterCrash.openInfo.replayed, 4);
        assert.deepEqual(await names(afterCrash), ['first', 'second', 'third', 'fourth']);
        await afterCrash.write(insert('fifth'));
        await opened.close(afterCrash);

        const afterClose = opened.add(await SqljsStore.open({ dir, migrations }));
        assert.deepEqual(await names(afterClose), ['first', 'second', 'third', 'fourth', 'fifth']);
        await opened.close(afterClose);
      } finally {
        await opened.closeRest();
      }
    });

    test(`a statement first journaled by a write that fails (${fault}) is defined again by the next write that names it`, async () => {
      const dir = await tempDir();
      const files = new FaultyFiles();
      const opened = new Opened();
      try {
        const store = opened.add(await openFaulty(dir, files, sync));
        // Columns in another order: a statement the catalogue has not numbered yet.
        const insertOther = (name: string) => [
          { sql: 'INSERT INTO items (data, name) VALUES (?, ?)', params: [null, name] },
        ];
        await store.write(insert('first'), 'durable');
        files.arm(fault);
        await assert.rejects(store.write(insertOther('lost'), 'durable'), /injected/);
        await store.write(insertOther('second'), 'durable');
        await opened.abandon(store);
        const afterCrash = opened.add(await SqljsStore.open({ dir, migrations }));
        assert.deepEqual(await names(afterCrash), ['first', 'second']);
        await opened.close(afterCrash);
      } finally {
        await opened.closeRest();
      }
    });
  }
});
