import assert from 'node:assert/strict';
import { main } from '../../server/cli/main.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/** `hookscope open`, in-process through main() against a real engine; only the browser is the test's. */
describe('hookscope open', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine();
  });
  after(() => t.stop());

  const cli = async (args: string[], openBrowser: (url: string) => Promise<unknown>) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      [...args, '--data-dir', t.dataDir],
      { out: (l) => out.push(l), err: (l) => err.push(l), env: {} },
      { openBrowser },
    );
    return { code, out, err };
  };
  const link = (): RegExp => new RegExp(`^${t.engine.apiUrl}/#/sign-in/[A-Za-z0-9_-]{43}$`);
  const redeem = async (url: string): Promise<number> => {
    const code = url.slice(url.lastIndexOf('/') + 1);
    const r = await fetch(`${t.engine.apiUrl}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    return r.status;
  };

  test('opens a one-time sign-in link to the engine in the browser', async () => {
    const opened: string[] = [];
    const r = await cli(['open'], async (url) => void opened.push(url));
    assert.equal(r.code, 0);
    assert.equal(opened.length, 1);
    assert.match(opened[0]!, link());
    assert.deepEqual(r.out, [`Opened the UI in your browser. The link works once, for 10 minutes: ${opened[0]}`]);
    assert.equal(await redeem(opened[0]!), 200);
    assert.equal(await redeem(opened[0]!), 401, 'the link works once');
  });

  test('--print prints the link alone and opens nothing; no browser prints the link and says why', async () => {
    const printed = await cli(['open', '--print'], async () => assert.fail('--print must not open a browser'));
    assert.equal(printed.code, 0);
    assert.deepEqual(printed.err, [], 'no browser was tried');
    assert.equal(printed.out.length, 1);
    assert.match(printed.out[0]!, link());
    assert.equal(await redeem(printed.out[0]!), 200);

    const headless = await cli(['open'], async () => {
      throw new Error('no display');
    });
    assert.equal(headless.code, 0);
    assert.deepEqual(headless.err, ['Could not open a browser (no display); open this link yourself:']);
    assert.equal(headless.out.length, 1);
    assert.equal(await redeem(headless.out[0]!), 200);
  });
});
