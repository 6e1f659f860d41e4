import assert from 'node:assert/strict';
import { runCliInProcess } from '../helpers/cli-in-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/**
 * `hookscope logs pin|unpin|delete|clear` and `logs --pinned|--unpinned`, run
 * in-process through main() against a real engine (the API client, the token
 * minted from the data directory and the exit codes are the real ones; only the
 * process spawn is saved).
 */
describe('hookscope logs pin, unpin, delete and clear', () => {
  let t: TestEngine;
  let ep: string;

  before(async () => {
    t = await startTestEngine();
    ep = await t.endpoint({ name: 'cli', validationType: 'none' });
  });
  after(() => t.stop());

  const cli = (...args: string[]) => runCliInProcess(t.dataDir, args);
  const deliver = async (endpointId = ep): Promise<string> =>
    (await t.deliver(`/webhook/${endpointId}`, { body: 'cli' })).body.data.id as string;

  test('pin and unpin, the pinned mark in show, and --pinned / --unpinned on the list', async () => {
    const [kept, other] = [await deliver(), await deliver()];
    assert.deepEqual(await cli('logs', 'pin', kept), {
      code: 0,
      out: `Pinned ${kept}: retention never evicts it.`,
      err: '',
    });
    assert.match((await cli('logs', 'show', kept)).out, /^pinned\s+yes \(retention never evicts it\)$/m);
    assert.doesNotMatch((await cli('logs', 'show', other)).out, /^pinned/m);
    const ids = async (...flags: string[]) =>
      JSON.parse((await cli('logs', '--endpoint', ep, ...flags, '--json')).out).logs.map((l: { id: string }) => l.id);
    assert.deepEqual(await ids('--pinned'), [kept]);
    assert.deepEqual(await ids('--unpinned'), [other]);

    const unpinned = await cli('logs', 'unpin', kept, '--json');
    assert.equal(unpinned.code, 0);
    assert.equal(JSON.parse(unpinned.out).pinned, false);
    assert.deepEqual(await ids('--pinned'), []);

    const missing = await cli('logs', 'pin', 'log_missing');
    assert.deepEqual(missing, {
      code: 1,
      out: '',
      err: 'hookscope: Log log_missing was not found. (LOG_NOT_FOUND, HTTP 404)',
    });
    const both = await cli('logs', '--pinned', '--unpinned');
    assert.equal(both.code, 2);
    assert.match(both.err, /option '--unpinned' cannot be used with option '--pinned'/);
  });

  test('delete: the named logs go; an id not found is reported on stderr with exit 1; more than 1000 is a usage error', async () => {
    const ownEp = await t.endpoint({ name: 'cli-delete', validationType: 'none' });
    const [a, b, c] = [await deliver(ownEp), await deliver(ownEp), await deliver(ownEp)];
    assert.deepEqual(await cli('logs', 'delete', a, b, 'log_missing'), {
      code: 1,
      out: 'Deleted 2 logs.',
      err: 'hookscope: not found: log_missing',
    });
    const json = await cli('logs', 'delete', c, '--json');
    assert.equal(json.code, 0);
    assert.deepEqual(JSON.parse(json.out), { deleted: 1, deletedIds: [c], notFound: [] });
    assert.equal((await t.api('GET', `/api/webhooks/logs?endpointId=${ownEp}`)).body.data.total, 0);

    const tooMany = await cli('logs', 'delete', ...Array.from({ length: 1001 }, (_, i) => `log_${i}`));
    assert.equal(tooMany.code, 2);
    assert.match(tooMany.err, /At most 1000 log ids at once\./);
    assert.equal((await cli('logs', 'delete')).code, 2, 'no id at all');
  });

  test("clear: an endpoint's unpinned logs, with how many pinned ones were kept; an unknown endpoint is exit 1", async () => {
    const ownEp = await t.endpoint({ name: 'cli-clear', validationType: 'none' });
    const [pinned] = [await deliver(ownEp), await deliver(ownEp)];
    assert.equal((await cli('logs', 'pin', pinned)).code, 0);
    assert.deepEqual(await cli('logs', 'clear', ownEp), {
      code: 0,
      out: `Deleted 1 log of ${ownEp} (kept 1 pinned).`,
      err: '',
    });
    assert.deepEqual(JSON.parse((await cli('logs', 'clear', ownEp, '--json')).out), {
      endpointId: ownEp,
      deleted: 0,
      pinnedKept: 1,
    });
    assert.deepEqual(await cli('logs', 'clear', 'ep_missing'), {
      code: 1,
      out: '',
      err: 'hookscope: Endpoint ep_missing was not found. (ENDPOINT_NOT_FOUND, HTTP 404)',
    });
  });
});
