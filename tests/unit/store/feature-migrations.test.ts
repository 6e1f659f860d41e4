import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { describe, test } from '../../helpers/node-test.ts';
import { snapshotQuery } from '../../helpers/snapshot-query.ts';
import { checkMigrationSets } from '../../../server/store/migration-plan.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import type { FeatureMigrations, Migration } from '../../../server/store/store-types.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-migrations-');

const items1: Migration = { number: 1, name: 'items', sql: 'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)' };
const items2: Migration = { number: 2, name: 'items_note', sql: 'ALTER TABLE items ADD COLUMN note TEXT' };
const audit1: Migration = {
  number: 1,
  name: 'audit',
  sql: `CREATE TABLE audit (name TEXT);
        CREATE TRIGGER items_audited AFTER INSERT ON items BEGIN INSERT INTO audit (name) VALUES (NEW.name); END;`,
};

const applied = (store: SqljsStore) =>
  store.all('SELECT feature, number, name FROM migrations ORDER BY feature, number');

describe('migrations keyed by feature and number', () => {
  test('a list the store could not apply safely is refused before anything is touched', async () => {
    const cases: [FeatureMigrations[], string][] = [
      [
        [
          { feature: 'items', migrations: [items1] },
          { feature: 'items', migrations: [items2] },
        ],
        'migrations: feature "items" is listed twice',
      ],
      [[{ feature: 'items', migrations: [items2] }], 'migrations: items 2 (items_note) is number 1 in its list'],
      [[{ feature: 'items', migrations: [items1, items1] }], 'migrations: items 1 (items) is number 2 in its list'],
      [[{ feature: 'Items', migrations: [items1] }], 'migrations: feature name "Items" is not kebab-case'],
      [
        [
          { feature: 'items', migrations: [{ ...items1, legacyVersion: 7 }] },
          { feature: 'audit', migrations: [{ ...audit1, legacyVersion: 7 }] },
        ],
        'migrations: audit 1 (audit) and items 1 (items) both claim legacy version 7',
      ],
    ];
    for (const [sets, message] of cases) {
      assert.throws(() => checkMigrationSets(sets), { message });
      const dir = join(await tempDir(), 'store');
      await assert.rejects(SqljsStore.open({ dir, migrations: sets }), { message });
      assert.equal(existsSync(dir), false, `${message}: the store directory was not even created`);
    }
    assert.doesNotThrow(() =>
      checkMigrationSets([
        { feature: 'items', migrations: [items1, items2] },
        { feature: 'audit', migrations: [audit1] },
      ]),
    );
  });

  test('features are migrated in list order: a feature may build on tables of features before it', async () => {
    const dir = await tempDir();
    const store = await SqljsStore.open({
      dir,
      migrations: [
        { feature: 'items', migrations: [items1] },
        { feature: 'audit', migrations: [audit1] },
      ],
    });
    await store.write([{ sql: 'INSERT INTO items (name) VALUES (?)', params: ['a'] }]);
    assert.deepEqual(await store.all('SELECT name FROM audit'), [{ name: 'a' }]);
    assert.deepEqual(await applied(store), [
      { feature: 'audit', number: 1, name: 'audit' },
      { feature: 'items', number: 1, name: 'items' },
    ]);
    await store.close();

    // The other way round, audit's trigger would name a table that does not exist yet.
    await assert.rejects(
      SqljsStore.open({
        dir: await tempDir(),
        migrations: [
          { feature: 'audit', migrations: [audit1] },
          { feature: 'items', migrations: [items1] },
        ],
      }),
      /^Error: migration audit 1 \(audit\) failed: no such table: main\.items$/,
    );
  });

  test("a feature's new migration is applied once on the next open, after its earlier ones and other features'", async () => {
    const dir = await tempDir();
    let store = await SqljsStore.open({
      dir,
      migrations: [
        { feature: 'items', migrations: [items1] },
        { feature: 'audit', migrations: [audit1] },
      ],
    });
    await store.write([{ sql: 'INSERT INTO items (name) VALUES (?)', params: ['before'] }]);
    await store.close();
    const later = [
      { feature: 'items', migrations: [items1, items2] },
      { feature: 'audit', migrations: [audit1] },
    ];
    for (let open = 0; open < 2; open++) {
      // Applying items 2 twice would fail: duplicate column name.
      store = await SqljsStore.open({ dir, migrations: later });
      assert.deepEqual(await applied(store), [
        { feature: 'audit', number: 1, name: 'audit' },
        { feature: 'items', number: 1, name: 'items' },
        { feature: 'items', number: 2, name: 'items_note' },
      ]);
      assert.deepEqual(await store.all('SELECT name, note FROM items'), [{ name: 'before', note: null }]);
      await store.close();
    }
  });

  test('a store written by a newer version is refused untouched; features this one does not list are left alone', async () => {
    const dir = await tempDir();
    let store = await SqljsStore.open({
      dir,
      migrations: [
        { feature: 'items', migrations: [items1, items2] },
        { feature: 'audit', migrations: [audit1] },
      ],
    });
    await store.write([{ sql: 'INSERT INTO items (name, note) VALUES (?, ?)', params: ['kept', 'n'] }]);
    await store.close();
    const snapshot = await readFile(join(dir, 'hookscope.db'));

    await assert.rejects(SqljsStore.open({ dir, migrations: [{ feature: 'items', migrations: [items1] }] }), {
      message:
        'the store was written by a newer Hookscope: it has migration items 2, which this version does not know. ' +
        'Run the newer version, or point this one at another data directory.',
    });
    assert.deepEqual(await readFile(join(dir, 'hookscope.db')), snapshot, 'the snapshot is as it was');

    // Only the items feature, at its latest: audit's rows are not this list's business.
    store = await SqljsStore.open({ dir, migrations: [{ feature: 'items', migrations: [items1, items2] }] });
    assert.deepEqual(await store.all('SELECT name, note FROM items'), [{ name: 'kept', note: 'n' }]);
    await store.close();
  });

  describe('a store from Hookscope 0.1.0 (engine-wide versions in schema_migrations)', () => {
    /** A snapshot as 0.1.0 wrote it: items at its versions 5 and 9 (their numbers then), one row. */
    async function legacyStore(versions: [number, string][]): Promise<string> {
      const dir = await tempDir();
      const SQL = await initSqlJs();
      const db = new SQL.Database();
      db.run(`CREATE TABLE store_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
              INSERT INTO store_meta (key, value) VALUES ('last_seq', 4);
              CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL);
              CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, note TEXT);
              INSERT INTO items (name, note) VALUES ('old', 'from 0.1.0');`);
      for (const [v, name] of versions)
        db.run('INSERT INTO schema_migrations (version, name) VALUES (?, ?)', [v, name]);
      await writeFile(join(dir, 'hookscope.db'), db.export());
      db.close();
      return dir;
    }
    const today: FeatureMigrations[] = [
      {
        feature: 'items',
        migrations: [
          { ...items1, legacyVersion: 5 },
          { ...items2, legacyVersion: 9 },
          { number: 3, name: 'items_tag', sql: 'ALTER TABLE items ADD COLUMN tag TEXT' },
        ],
      },
    ];

    test('is upgraded: each applied version becomes its (feature, number), the old table goes, new steps run once', async () => {
      const dir = await legacyStore([
        [5, 'items'],
        [9, 'items_note'],
      ]);
      let store = await SqljsStore.open({ dir, migrations: today });
      assert.deepEqual(await applied(store), [
        { feature: 'items', number: 1, name: 'items' },
        { feature: 'items', number: 2, name: 'items_note' },
        { feature: 'items', number: 3, name: 'items_tag' },
      ]);
      assert.deepEqual(await store.all('SELECT name, note, tag FROM items'), [
        { name: 'old', note: 'from 0.1.0', tag: null },
      ]);
      assert.equal(
        (await store.get<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'schema_migrations'"))?.n,
        0,
      );
      await store.close();
      assert.deepEqual(
        await snapshotQuery(join(dir, 'hookscope.db'), 'SELECT feature, number FROM migrations ORDER BY number'),
        [
          ['items', 1],
          ['items', 2],
          ['items', 3],
        ],
      );
      store = await SqljsStore.open({ dir, migrations: today });
      assert.equal((await applied(store)).length, 3);
      await store.close();
    });

    test('with a version this engine never had, is refused untouched', async () => {
      const dir = await legacyStore([
        [5, 'items'],
        [9, 'items_note'],
        [12, 'from_the_future'],
      ]);
      const snapshot = await readFile(join(dir, 'hookscope.db'));
      await assert.rejects(SqljsStore.open({ dir, migrations: today }), {
        message: 'the store has engine-wide migration version 12, which this version of Hookscope does not know.',
      });
      assert.deepEqual(await readFile(join(dir, 'hookscope.db')), snapshot);
    });
  });
});
