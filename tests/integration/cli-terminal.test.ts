import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { runCliBytes as runBytes } from '../helpers/cli-bytes.ts';
import { spawnCli } from '../helpers/cli-spawn.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/**
 * A child's stdout is always a pipe: HOOKSCOPE_FORCE_TTY=1 makes the CLI treat
 * it as the terminal it would be (NO_COLOR keeps colour codes out of the way).
 */
const TTY = { HOOKSCOPE_FORCE_TTY: '1' };

// eslint-disable-next-line no-control-regex -- what a terminal must never be handed raw
const TERMINAL_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** What a terminal may be shown: UTF-8 with no control character but newline and tab. */
function assertInert(bytes: Buffer, what: string): string {
  assert.ok(isUtf8(bytes), `${what}: UTF-8`);
  const text = bytes.toString('utf8');
  assert.doesNotMatch(text, TERMINAL_CONTROL, `${what}: ${JSON.stringify(text)}`);
  return text;
}

// Retitle the window (OSC 0 ... BEL), recolour (CSI), return to the line start, C1 CSI (U+009B), DEL.
const EVIL = '{"msg":"\x1b]0;pwned\x07\x1b[31mred\x1b[0m\rfake \u009b2J \x7f"}';
const EVIL_SHOWN = '{"msg":"\\x1b]0;pwned\\x07\\x1b[31mred\\x1b[0m\\rfake \\u009b2J \\x7f"}';
const BINARY = Buffer.from([0x1b, 0x5b, 0x32, 0x4a, 0xff, 0xfe, 0x00, 0x07, 0x0d, 0x9b]);

describe('sender bytes on a terminal: escaped; into a pipe or with --body-only: exact', () => {
  let t: TestEngine;
  let evilLog: string;
  let binLog: string;
  let target: Server;
  let targetUrl: string;
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runBytes([...args, '--data-dir', t.dataDir], env);
  const ok = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const r = await cli(args, env);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    return r;
  };

  before(async () => {
    t = await startTestEngine();
    const ep = await t.endpoint({ name: 'terminal', validationType: 'none' });
    const evil = await rawRequest(`${t.engine.receiverUrl}/webhook/${ep}/in?q=%1b%5d0%3Bt%07`, {
      headers: [
        ['Content-Type', 'application/json'],
        ['X-Raw-C1', 'a\u009bb'], // the byte 0x9b as received
        ['X-Utf8-C1', Buffer.from('c\u009bd').toString('latin1')], // U+009B written in UTF-8
      ],
      body: Buffer.from(EVIL), // a Buffer, so node:http writes the header values as latin1 (bytes), not UTF-8
    });
    evilLog = evil.json().data.id;
    binLog = (
      await rawRequest(`${t.engine.receiverUrl}/webhook/${ep}/bin`, {
        headers: [['Content-Type', 'application/octet-stream']],
        body: BINARY,
      })
    ).json().data.id;
    target = createServer((req, res) => {
      req.resume();
      res.setHeader('X-Target', 'e\u009bf');
      res.end('target says \x1b]0;owned\x07\x1b[2J\rdone');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    await t.stop();
    await new Promise((r) => target.close(r));
  });

  test('logs show on a terminal: body, header values and the note in visible form', async () => {
    const text = assertInert((await ok(['logs', 'show', evilLog], TTY)).stdout, 'logs show');
    assert.ok(text.includes(`\n${EVIL_SHOWN}\n`), text);
    assert.match(text, /^X-Raw-C1\s+a\\u009bb$/m);
    assert.match(text, /^X-Utf8-C1\s+c\\u009bd$/m);
    assert.match(text, /^Body \(control characters shown escaped; --body-only prints the exact bytes\)$/m);
    assert.match(text, /^request\s+POST \/in\?q=%1B%5D0%3Bt%07$/m, 'the query as it would be sent');
  });

  test('logs show into a pipe: the body and UTF-8 header values exactly as received', async () => {
    const r = await ok(['logs', 'show', evilLog]);
    assert.ok(r.stdout.includes(Buffer.from(`\n${EVIL}\n`)), 'raw body');
    assert.ok(r.stdout.includes(Buffer.from('c\u009bd')), 'a UTF-8 header value as its own bytes');
    assert.doesNotMatch(r.stdout.toString('utf8'), /shown escaped/);
  });

  test('logs show --body-only: exactly the stored bytes, terminal or pipe, binary decoded', async () => {
    for (const env of [TTY, {}]) {
      assert.ok(
        (await ok(['logs', 'show', evilLog, '--body-only'], env)).stdout.equals(Buffer.from(EVIL)),
        JSON.stringify(env),
      );
      const bin = await ok(['logs', 'show', binLog, '--body-only'], env);
      assert.ok(bin.stdout.equals(BINARY), `binary ${JSON.stringify(env)}: ${bin.stdout.toString('hex')}`);
      assert.equal(bin.stderr, '');
    }
  });

  test('export: curl is the same printable file on a terminal; raw HTTP is escaped there and exact into a pipe', async () => {
    const curl = (await t.api('GET', `/api/webhooks/logs/${evilLog}/export?format=curl`)).body.data.content as string;
    const onTty = await ok(['export', evilLog, '--format', 'curl'], TTY);
    assert.equal(assertInert(onTty.stdout, 'curl'), curl, 'nothing to escape: pasting it works');
    assert.ok(curl.startsWith(`printf '%b' '{"msg":"\\0033]0;pwned\\0007`), curl);
    assert.equal(onTty.stderr, '');

    // The raw header byte 0x9b makes the message binary: the API sends it as base64.
    const http = (await t.api('GET', `/api/webhooks/logs/${evilLog}/export?format=http`)).body.data;
    assert.equal(http.contentEncoding, 'base64');
    const shown = await ok(['export', evilLog, '--format', 'http'], TTY);
    const text = assertInert(shown.stdout, 'http');
    assert.ok(text.endsWith(`\\r\n\\r\n${EVIL_SHOWN}`), text);
    assert.match(text, /^X-Raw-C1: a\uFFFDb\\r$/m, 'a byte that is not UTF-8 as U+FFFD');
    assert.match(
      shown.stderr,
      /^note: control characters are shown escaped; use --out FILE or a pipe for the exact file\.\n$/,
    );
    const piped = await ok(['export', evilLog, '--format', 'http']);
    assert.ok(piped.stdout.equals(Buffer.from(http.content, 'base64')), 'the exact file');
    assert.ok(piped.stdout.includes(Buffer.from(`\r\n\r\n${EVIL}`)));
  });

  test('diagnose on a terminal prints nothing a terminal acts on', async () => {
    const text = assertInert((await ok(['diagnose', evilLog, '--target', targetUrl], TTY)).stdout, 'diagnose');
    assert.match(text, /^Resend it with cURL\nprintf '%b' '\{"msg":"\\0033\]0;pwned\\0007/m);
  });

  test("replay: the target's answer is escaped on a terminal and exact into a pipe", async () => {
    const text = assertInert((await ok(['replay', evilLog, '--to', targetUrl], TTY)).stdout, 'replay');
    assert.match(text, /^X-Target\s+e\\u009bf$/m);
    assert.ok(text.endsWith('\ntarget says \\x1b]0;owned\\x07\\x1b[2J\\rdone\n'), text);
    const piped = await ok(['replay', evilLog, '--to', targetUrl]);
    assert.ok(piped.stdout.toString('utf8').endsWith('\ntarget says \x1b]0;owned\x07\x1b[2J\rdone\n'));
  });

  test('--json keeps the data and writes every control character as a JSON escape', async () => {
    for (const env of [TTY, {}]) {
      const r = await ok(['logs', 'show', evilLog, '--json'], env);
      const text = assertInert(r.stdout, 'json');
      const log = JSON.parse(text);
      assert.equal(log.body, EVIL);
      assert.deepEqual(log.rawHeaders.slice(1, 3), [
        ['X-Raw-C1', 'a\u009bb'],
        ['X-Utf8-C1', Buffer.from('c\u009bd').toString('latin1')],
      ]);
    }
  });
});

/**
 * Commands whose sender data cannot be made to carry controls through a real
 * engine today (paths, replay errors, the engine's explain text) are checked
 * against a stand-in engine: runtime.json in a temp data dir names this
 * server, so every answer can hold what a later engine might pass through.
 */
describe('sender bytes from every other command on a terminal', () => {
  let dir: string;
  let fake: Server;
  const NASTY = 'x\x1b]0;t\x07\x1b[31m\ry\u009b';
  const NASTY_SHOWN = 'x\\x1b]0;t\\x07\\x1b[31m\\ry\\u009b';
  const summary = {
    id: 'log_1',
    endpointId: 'ep_1',
    method: 'POST',
    path: `/p${NASTY}`,
    query: {},
    contentType: null,
    size: 1,
    storedSize: 1,
    truncated: false,
    sourceIp: null,
    receivedAt: '2030-01-01T00:00:00.000Z',
    durationMs: 1,
    status: 'success',
    verification: { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null },
  };
  const cli = (args: string[]) => runBytes([...args, '--data-dir', dir], TTY);

  before(async () => {
    dir = await makeTempDir('hookscope-fake-engine-');
    fake = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/api/webhooks/logs')
        return json(200, { success: true, data: { logs: [summary], total: 1, limit: 50, offset: 0, hasMore: false } });
      if (url.pathname === '/api/cli/explain/log_1') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end(`Analysis of log_1\n   - Sent: ${NASTY}\n`);
      }
      if (url.pathname === '/api/replay/log_1/history') {
        const entry = {
          id: 'rpl_1',
          createdAt: '2030-01-01T00:00:00.000Z',
          trigger: 'manual',
          method: 'POST',
          targetUrl: `http://t/${NASTY}`,
          status: null,
          responseTime: 5,
          error: { code: 'TARGET_ERROR', message: NASTY },
        };
        return json(200, { success: true, data: { history: [entry], total: 1 } });
      }
      if (url.pathname === '/api/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return res.write(`id: 1\nevent: log.created\ndata: ${JSON.stringify(summary)}\n\n`);
      }
      json(404, { success: false, error: { code: 'LOG_NOT_FOUND', message: `No log ${NASTY}`, details: null } });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const apiUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const runtime = {
      pid: process.pid,
      apiUrl,
      receiverUrl: apiUrl,
      publicUrl: null,
      startedAt: '2030-01-01T00:00:00.000Z',
      version: 'test',
    };
    await writeFile(join(dir, 'runtime.json'), JSON.stringify(runtime));
  });
  after(async () => {
    fake.closeAllConnections();
    await new Promise((r) => fake.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  test('logs list, explain and history escape what they quote', async () => {
    const list = assertInert((await cli(['logs', 'list'])).stdout, 'logs list');
    assert.ok(list.includes(`/p${NASTY_SHOWN}`), list);
    const explain = assertInert((await cli(['explain', 'log_1'])).stdout, 'explain');
    assert.equal(explain, `Analysis of log_1\n   - Sent: ${NASTY_SHOWN}\n`);
    const history = assertInert((await cli(['history', 'log_1'])).stdout, 'history');
    assert.ok(history.includes(`http://t/${NASTY_SHOWN}`) && history.includes(`TARGET_ERROR: ${NASTY_SHOWN}`), history);
  });

  test('an error message is escaped on stderr', async () => {
    const r = await cli(['logs', 'show', 'log_missing']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `hookscope: No log ${NASTY_SHOWN} (LOG_NOT_FOUND, HTTP 404)\n`);
  });

  test('tail escapes the path of a live delivery; --json escapes it as JSON', async () => {
    for (const json of [false, true]) {
      const l = spawnCli(['tail', '--data-dir', dir, ...(json ? ['--json'] : [])], TTY);
      try {
        const m = await l.waitFor(/^.*log_1.*$/m);
        assert.doesNotMatch(l.stdout(), TERMINAL_CONTROL);
        if (json) assert.equal(JSON.parse(m[0]).path, summary.path);
        else assert.ok(m[0].includes(`POST /p${NASTY_SHOWN}  success`), m[0]);
      } finally {
        l.child.kill('SIGTERM');
        await l.exited;
      }
    }
  });
});
