import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { abandon } from '../../helpers/abandon-store.ts';
import { ITEMS_TABLE } from '../../helpers/items-table.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';
import { decodeRecords, encodeDefinitions, encodeRecord } from '../../../server/store/journal-codec.ts';
import { listSegments } from '../../../server/store/journal-files.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { StatementCatalogue } from '../../../server/store/statement-catalogue.ts';
import type { FeatureMigrations, WriteOp } from '../../../server/store/store-types.ts';

const INSERT = 'INSERT INTO items (name, data) VALUES (?, ?)';
const RENAME = 'UPDATE items SET name = ?2 WHERE name = ?1';
const record = (seq: number, name: string): { seq: number; ops: WriteOp[] } => ({
  seq,
  ops: [
    { sql: INSERT, params: [name, Buffer.from([seq, 0, 255])] },
    { sql: RENAME, params: [name, `${name}!`], coalesce: true },
  ],
});

describe('statement catalogue: frames name statements by number', () => {
  test('numbers count up from 1 per distinct text, and definitionsAfter lists the ones after n', () => {
    const c = new StatementCatalogue();
    assert.equal(c.idOf(INSERT), 1);
    assert.equal(c.idOf(RENAME), 2);
    assert.equal(c.idOf(INSERT), 1);
    assert.equal(c.size, 2);
    assert.deepEqual(c.definitionsAfter(0), [
      [1, INSERT],
      [2, RENAME],
    ]);
    assert.deepEqual(c.definitionsAfter(1), [[2, RENAME]]);
    assert.deepEqual(c.definitionsAfter(2), []);
  });

  test('a frame with numbers decodes to the same statements after their definitions, and is shorter', () => {
    const c = new StatementCatalogue();
    const numbered = encodeRecord(record(7, 'a'), c);
    const inline = encodeRecord(record(7, 'a'));
    // Each text and its two quotes give way to a one-digit number.
    assert.equal(inline.length - numbered.length, INSERT.length + RENAME.length + 2);
    const buf = Buffer.concat([encodeDefinitions(c.definitionsAfter(0)), numbered]);
    const { records, goodLength } = decodeRecords(buf);
    assert.equal(goodLength, buf.length);
    assert.equal(records.length, 1);
    assert.deepEqual(
      records[0]!.ops.map((o) => [o.sql, o.coalesce ?? false]),
      [
        [INSERT, false],
        [RENAME, true],
      ],
    );
    assert.deepEqual([...(records[0]!.ops[0]!.params[1] as Uint8Array)], [7, 0, 255]);
  });

  test('a number no earlier frame defines is a broken journal: decoding throws, naming the record', () => {
    const c = new StatementCatalogue();
    const buf = Buffer.concat([encodeRecord(record(1, 'a'), c)]);
    assert.throws(() => decodeRecords(buf), /journal record 1 names statement 1, which no frame before it defines/);
  });

  test('definitions carried in a map from earlier frames serve later ones (the worker keeps one map)', () => {
    const c = new StatementCatalogue();
    const statements = new Map<number, string>();
    const first = encodeRecord(record(1, 'a'), c);
    decodeRecords(Buffer.concat([encodeDefinitions(c.definitionsAfter(0)), first]), statements);
    const { records } = decodeRecords(encodeRecord(record(2, 'b'), c), statements);
    assert.equal(records[0]!.ops[1]!.sql, RENAME);
  });

  test('past its limit the catalogue leaves statements inline, so varying SQL cannot grow it', () => {
    const c = new StatementCatalogue(1);
    const frame = encodeRecord(record(1, 'a'), c);
    assert.equal(c.size, 1);
    assert.equal(frame.includes(RENAME), true, 'the second statement is written out');
    assert.equal(frame.includes(INSERT), false, 'the first is named by number');
    const { records } = decodeRecords(Buffer.concat([encodeDefinitions(c.definitionsAfter(0)), frame]));
    assert.deepEqual(
      records[0]!.ops.map((o) => o.sql),
      [INSERT, RENAME],
    );
  });
});

describe('statement catalogue in the store', () => {
  const tempDir = tempDirs('hookscope-catalogue-');
  const migrations: FeatureMigrations[] = [{ feature: 'items', migrations: [ITEMS_TABLE] }];
  const insert = (name: string): WriteOp[] => [{ sql: INSERT, params: [name, null] }];
  const names = async (store: SqljsStore): Promise<string[]> =>
    (await store.all<{ name: string }>('SELECT name FROM items ORDER BY id')).map((r) => r.name);

  test('every journal segment defines the statements it names, so each reads on its own after checkpoints', async () => {
    const dir = await tempDir();
    const store = await SqljsStore.open({ dir, migrations });
    try {
      await store.write(insert('a'), 'durable');
      await store.checkpoint();
      // This segment's first group names a statement numbered in the previous segment.
      await store.write(insert('b'), 'durable');
      await store.write(insert('c'), 'durable');
      const journaled: number[] = [];
      for (const s of await listSegments(dir)) {
        // A fresh map per segment, as recovery reads them.
        journaled.push(...decodeRecords(await readFile(s.path)).records.map((r) => r.seq));
      }
      assert.deepEqual(journaled, [2, 3]);
    } finally {
      await abandon(store);
    }

    const reopened = await SqljsStore.open({ dir, migrations });
    try {
      assert.equal(reopened.openInfo.replayed, 2);
      assert.deepEqual(await names(reopened), ['a', 'b', 'c']);
      // A new process numbers afresh; its segment defines its own numbers.
      await reopened.write([{ sql: RENAME, params: ['a', 'a2'] }], 'durable');
    } finally {
      await abandon(reopened);
    }
    const again = await SqljsStore.open({ dir, migrations });
    try {
      assert.deepEqual(await names(again), ['a2', 'b', 'c']);
    } finally {
      await again.close();
    }
  });
});
