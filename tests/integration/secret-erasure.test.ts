import assert from 'node:assert/strict';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, test } from '../helpers/node-test.ts';
import { rm } from 'node:fs/promises';
import { createHmac } from 'node:crypto';
import { ManualClock } from '../../server/support/clock.ts';
import { makeTempDir, startTestEngine } from '../helpers/test-engine.ts';

/** The data directory's files (relative paths) whose bytes contain `needle` (utf8). */
async function filesContaining(root: string, needle: string): Promise<string[]> {
  const bytes = Buffer.from(needle, 'utf8');
  const hits: string[] = [];
  const visit = async (path: string): Promise<void> => {
    const st = await lstat(path);
    if (st.isDirectory()) {
      for (const name of await readdir(path)) await visit(join(path, name));
    } else if (st.isFile() && (await readFile(path)).includes(bytes)) {
      hits.push(relative(root, path));
    }
  };
  await visit(root);
  return hits.sort();
}

/**
 * A secret that no longer verifies anything must not stay readable in the data
 * directory: after the next checkpoint it is in no file. Deleted and rewritten
 * rows are zeroed in the database (secure_delete), and the journal segments that
 * recorded the secret are deleted by that checkpoint.
 *
 * With regeneration the previous secret stays valid for the grace period (24 h by
 * default) so senders can roll over. It is "rotated out" once it verifies nothing:
 * when its grace ends (the engine erases it before the next checkpoint), or when
 * a second regeneration replaces it (A -> B -> C: A must be gone at once).
 *
 * SQLite reuses freed space in ways that sometimes overwrite an old row anyway
 * (an only row, a same-size update, a freed block refilled from its end), so the
 * scenarios are built where it does not: neighbours stay on the page, each new
 * secret is longer than the last (the rewritten row moves and its old copy is
 * left as free space), and nothing is written after the deletion.
 */
describe('secret erasure', () => {
  test('a rotated-out secret and a deleted endpoint’s secret are in no file of the data directory after a checkpoint', async () => {
    const dir = await makeTempDir('hookscope-erasure-');
    try {
      const tag = Date.now().toString(36);
      const a = `rotated-secret-A-${tag}`;
      const b = `rotated-secret-B-${tag}-${'b'.repeat(40)}`;
      const c = `rotated-secret-C-${tag}-${'c'.repeat(80)}`;
      const deleted = `deleted-endpoint-secret-${tag}`;

      const first = await startTestEngine({}, {}, dir);
      let rotated: string;
      try {
        await first.endpoint({
          name: 'neighbour 1',
          validationType: 'hmac_sha256',
          webhookSecret: `neighbour-1-${tag}`,
        });
        rotated = await first.endpoint({ name: 'to rotate', validationType: 'hmac_sha256', webhookSecret: a });
        await first.endpoint({
          name: 'neighbour 2',
          validationType: 'hmac_sha256',
          webhookSecret: `neighbour-2-${tag}`,
        });
      } finally {
        await first.stop();
      }
      assert.deepEqual(await filesContaining(dir, a), ['store/hookscope.db']);

      // A restart: the database is loaded from the snapshot (secure_delete is per connection).
      const t = await startTestEngine({}, {}, dir);
      try {
        for (const next of [b, c]) {
          const r = await t.api('POST', `/api/endpoints/${rotated}/regenerate-secret`, {
            body: { webhookSecret: next },
          });
          assert.equal(r.status, 200, JSON.stringify(r.body));
          assert.equal(r.body.data.webhookSecret, next);
        }
        await t.engine.checkpoint();
        assert.deepEqual(await filesContaining(t.dataDir, a), []);
        // The search does find what is still stored: the current and the previous secret.
        assert.deepEqual(await filesContaining(t.dataDir, b), ['store/hookscope.db']);
        assert.deepEqual(await filesContaining(t.dataDir, c), ['store/hookscope.db']);

        const gone = await t.endpoint({ name: 'to delete', validationType: 'hmac_sha256', webhookSecret: deleted });
        await t.engine.checkpoint();
        assert.deepEqual(await filesContaining(t.dataDir, deleted), ['store/hookscope.db']);
        assert.equal((await t.api('DELETE', `/api/endpoints/${gone}`)).status, 200);
        await t.engine.checkpoint();
        assert.deepEqual(await filesContaining(t.dataDir, deleted), []);
      } finally {
        await t.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a previous secret verifies during its grace period and is in no file after the first checkpoint once the grace is over', async () => {
    const clock = new ManualClock(Date.parse('2026-11-23T10:00:00.000Z'));
    const t = await startTestEngine({ secretGraceMs: 3_600_000 }, { clock });
    try {
      const tag = Date.now().toString(36);
      const old = `grace-secret-old-${tag}`;
      const ep = await t.endpoint({ name: 'rotating', validationType: 'hmac_sha256', webhookSecret: old });
      await t.endpoint({ name: 'neighbour', validationType: 'hmac_sha256', webhookSecret: `grace-neighbour-${tag}` });
      const next = `grace-secret-new-${tag}-${'n'.repeat(40)}`;
      assert.equal(
        (await t.api('POST', `/api/endpoints/${ep}/regenerate-secret`, { body: { webhookSecret: next } })).status,
        200,
      );
      const signedWithOld = async () => {
        const body = JSON.stringify({ at: clock.now() });
        return (
          await t.deliver(`/webhook/${ep}`, {
            body,
            headers: { 'x-webhook-signature': createHmac('sha256', old).update(body).digest('hex') },
          })
        ).status;
      };

      // One millisecond before the grace ends: still accepted, and a checkpoint keeps it.
      clock.advance(3_600_000 - 1);
      assert.equal(await signedWithOld(), 200);
      await t.engine.checkpoint();
      assert.deepEqual(await filesContaining(t.dataDir, old), ['store/hookscope.db']);

      // At the end of the grace: refused, and the next checkpoint leaves it nowhere.
      clock.advance(1);
      assert.equal(await signedWithOld(), 400);
      await t.engine.checkpoint();
      assert.deepEqual(await filesContaining(t.dataDir, old), []);
      assert.deepEqual(await filesContaining(t.dataDir, next), ['store/hookscope.db']);
    } finally {
      await t.stop();
    }
  });
});
