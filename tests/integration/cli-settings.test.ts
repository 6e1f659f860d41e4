import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCliInProcess } from '../helpers/cli-in-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/**
 * `hookscope settings [get]` and `settings set key=value...`, in-process
 * through main() against a real engine (its API client, the token minted from
 * the data directory and the exit codes are the real ones).
 */
describe('hookscope settings', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine();
  });
  after(() => t.stop());

  const cli = (...args: string[]) => runCliInProcess(t.dataDir, args);

  test('shows each setting with where it comes from; set saves, applies and prints the result', async () => {
    const shown = await cli('settings');
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /^\s*rateLimit\.perSecond\s+1000\s+default\s*$/m);
    assert.match(shown.out, /^\s*llm\.url\s+\(off\)\s+default\s*$/m);
    assert.match(
      shown.out,
      new RegExp(
        `^\\s*ports\\.api\\s+${new URL(t.engine.apiUrl).port} \\(restart: --api-port, HOOKSCOPE_API_PORT\\)`,
        'm',
      ),
    );

    const set = await cli(
      'settings',
      'set',
      'rateLimit.perSecond=40',
      'tunnel.subdomain=mysub1',
      'llm.url=http://127.0.0.1:9',
    );
    assert.equal(set.code, 1, 'the LLM needs a model: the engine says so');
    assert.equal(
      set.err,
      'hookscope: Invalid request body "llm.model": must not be empty. (VALIDATION_ERROR, HTTP 400)',
    );
    const ok = await cli(
      'settings',
      'set',
      'rateLimit.perSecond=40',
      'tunnel.subdomain=mysub1',
      'llm.url=http://127.0.0.1:9',
      'llm.model=tiny',
    );
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.out, new RegExp(`^Saved to ${join(t.dataDir, 'config.json')} and applied\\.$`, 'm'));
    assert.match(ok.out, /^\s*rateLimit\.perSecond\s+40\s+file receiver\.rateLimit\.perSecond\s*$/m);
    assert.deepEqual(JSON.parse(await readFile(join(t.dataDir, 'config.json'), 'utf8')), {
      receiver: { rateLimit: { perSecond: 40 } },
      tunnel: { subdomain: 'mysub1' },
      remediation: { llm: { url: 'http://127.0.0.1:9', model: 'tiny' } },
    });

    // The model alone: the URL keeps its value. Empty clears the subdomain; llm=off turns the LLM off.
    const json = await cli('settings', 'set', 'llm.model=bigger', 'tunnel.subdomain=', '--json');
    assert.equal(json.code, 0, json.err);
    const data = JSON.parse(json.out);
    assert.deepEqual(data.llm, { url: 'http://127.0.0.1:9', model: 'bigger', apiKeySet: false });
    assert.equal(data.tunnel.subdomain, null);
    assert.equal((await cli('settings', 'set', 'llm=off')).code, 0);
    assert.equal((await t.api('GET', '/api/settings')).body.data.llm, null);
  });

  test('bad input: unknown keys are usage errors (2), bad values the engine refuses (1), another account is refused', async () => {
    for (const args of [['frobnicate=1'], ['rateLimit.perSecond'], ['llm=on'], ['llm=off', 'llm.url=http://x']]) {
      const r = await cli('settings', 'set', ...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.equal(r.out, '');
    }
    const zero = await cli('settings', 'set', 'retention.maxLogsPerAccount=0');
    assert.equal(zero.code, 1);
    assert.equal(
      zero.err,
      'hookscope: Invalid request body "retention.maxLogsPerAccount": must be a whole number of at least 1. (VALIDATION_ERROR, HTTP 400)',
    );
    const other = await cli('settings', 'set', 'rateLimit.burst=5', '--user', 'someone-else');
    assert.equal(other.code, 1);
    assert.match(other.err, /^hookscope: Only the owner account of this install .*\(FORBIDDEN, HTTP 403\)$/);
    const readable = await cli('settings', '--user', 'someone-else');
    assert.equal(readable.code, 0);
    assert.match(readable.out, /Only the owner account of this install may change these\.$/);
  });
});
