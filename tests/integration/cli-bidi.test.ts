import assert from 'node:assert/strict';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { runCliBytes } from '../helpers/cli-bytes.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/** A child's stdout is a pipe: HOOKSCOPE_FORCE_TTY=1 makes the CLI print what a terminal would get. */
const TTY = { HOOKSCOPE_FORCE_TTY: '1' };

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// "invoice_\u202Efdp.exe" reads as "invoice_exe.pdf" where the override is applied.
const BODY = '{"file":"invoice_\u202Efdp.exe","note":"\u2066a\u2069 \u200e\u200f\u061c"}';
const BODY_SHOWN = '{"file":"invoice_\\u202efdp.exe","note":"\\u2066a\\u2069 \\u200e\\u200f\\u061c"}';

describe('bidi controls in sender data on a terminal', () => {
  let t: TestEngine;
  let logId: string;
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCliBytes([...args, '--data-dir', t.dataDir], env);

  before(async () => {
    t = await startTestEngine();
    const ep = await t.endpoint({ name: 'bidi', validationType: 'none' });
    const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${ep}/in?to=%E2%80%AEtxt.exe`, {
      headers: [
        ['Content-Type', 'application/json'],
        // node:http writes a string header as latin1: these are the UTF-8 bytes of U+202B.
        ['X-Name', Buffer.from('a\u202Bb').toString('latin1')],
      ],
      body: Buffer.from(BODY),
    });
    logId = r.json().data.id;
  });
  after(() => t.stop());

  test('logs show escapes them in the body and a header value; a pipe gets them exactly', async () => {
    const shown = await cli(['logs', 'show', logId], TTY);
    assert.equal(shown.code, 0, shown.stderr);
    const text = shown.stdout.toString('utf8');
    assert.doesNotMatch(text, BIDI, JSON.stringify(text));
    assert.ok(text.includes(`\n${BODY_SHOWN}\n`), text);
    assert.match(text, /^X-Name\s+a\\u202bb$/m);

    const piped = await cli(['logs', 'show', logId]);
    assert.ok(piped.stdout.includes(Buffer.from(`\n${BODY}\n`)), 'the body as received');
    assert.ok(piped.stdout.includes(Buffer.from('a\u202Bb')), 'the header value as received');
  });

  test('--json writes them as JSON escapes: the same data, inert on a terminal', async () => {
    const r = await cli(['logs', 'show', logId, '--json'], TTY);
    const text = r.stdout.toString('utf8');
    assert.doesNotMatch(text, BIDI);
    assert.ok(text.includes('invoice_\\u202efdp.exe'), text);
    const log = JSON.parse(text);
    assert.equal(log.body, BODY);
    assert.deepEqual(log.query, { to: '\u202Etxt.exe' });
  });
});
