import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from '../helpers/node-test.ts';
import type { Clock } from '../../server/support/clock.ts';
import type { Random } from '../../server/support/random.ts';
import { DEFAULT_CONFIG } from '../../server/config/config.ts';
import { startServe } from '../helpers/cli-process.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const SECRET = 'whsec-do-not-log-7f3a9c';
const BODY_MARKER = 'body-bytes-never-logged-41d2';

/** The error carries a secret and a body the way a client library's error carries its request, to prove redaction. */
const breakdown = (what: string): Error =>
  Object.assign(new Error(what), {
    config: { headers: { authorization: `Bearer ${SECRET}` }, webhookSecret: SECRET },
    body: BODY_MARKER,
  });

/**
 * A clock that throws while armed: the first thing the receiver and the share
 * page each do is read it, so arming it turns the next request into an unexpected error.
 */
class FailingClock implements Clock {
  armed = false;
  now(): number {
    if (this.armed) throw breakdown('the clock broke');
    return Date.now();
  }
}

/** Randomness that fails once when armed: creating an endpoint asks for its id and secret first. */
class FailingRandom implements Random {
  armed = false;
  bytes(n: number): Buffer {
    if (this.armed) {
      this.armed = false;
      throw breakdown('the randomness broke');
    }
    return randomBytes(n);
  }
}

interface LogLine {
  level: string;
  time: string;
  msg: string;
  errorId?: string;
  err?: { message: string; stack: string };
  [key: string]: unknown;
}

async function readLog(dataDir: string): Promise<{ text: string; lines: LogLine[] }> {
  const text = await readFile(join(dataDir, 'logs', 'engine.log'), 'utf8');
  return {
    text,
    lines: text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as LogLine),
  };
}

/** Runs `fn` against an engine with a failing clock and randomness, then stops it (which flushes and closes its log). */
async function withEngine(
  fn: (t: TestEngine, clock: FailingClock, random: FailingRandom) => Promise<void>,
): Promise<string> {
  const dir = await makeTempDir();
  const clock = new FailingClock();
  const random = new FailingRandom();
  const t = await startTestEngine({}, { clock, random }, dir);
  try {
    await fn(t, clock, random);
  } finally {
    clock.armed = false;
    random.armed = false;
    await t.stop();
  }
  return dir;
}

describe('engine log', () => {
  test('a 500 on the API carries an errorId that names its log line (with the stack); no secret, token or body reaches the log', async () => {
    let errorId = '';
    let token = '';
    const dir = await withEngine(async (t, _clock, random) => {
      token = t.token;
      random.armed = true;
      const r = await t.api('POST', '/api/endpoints', {
        body: { name: BODY_MARKER, validationType: 'hmac_sha256', webhookSecret: SECRET },
      });
      assert.equal(random.armed, false, 'the request used the failing randomness');
      assert.equal(r.status, 500);
      assert.equal(r.body.error.code, 'INTERNAL_ERROR');
      errorId = r.body.error.details.errorId;
      assert.match(errorId, /^err_[0-9a-z]{16}$/);
      assert.equal(
        r.body.error.message,
        `An unexpected error occurred; the engine logged it as ${errorId} (logs/engine.log in its data directory).`,
      );
      assert.ok(!JSON.stringify(r.body).includes('the clock broke'), 'nothing internal reaches the client');
    });
    try {
      const { text, lines } = await readLog(dir);
      const faults = lines.filter((l) => l.errorId === errorId);
      assert.equal(faults.length, 1, text);
      const line = faults[0]!;
      assert.equal(line.level, 'error');
      assert.equal(line.msg, 'unexpected error');
      assert.equal(line.listener, 'api');
      assert.equal(line.method, 'POST');
      assert.equal(line.path, '/api/endpoints');
      assert.equal(line.err!.message, 'the randomness broke');
      assert.match(line.err!.stack, /FailingRandom\.bytes/);
      assert.equal((line.err as unknown as { body: string }).body, '[redacted]');
      assert.equal(text.includes(SECRET), false, 'the secret is not in the log');
      assert.equal(text.includes(BODY_MARKER), false, 'the body is not in the log');
      assert.equal(text.includes(token), false, 'the bearer token is not in the log');
      assert.equal(Number.isNaN(Date.parse(line.time)), false);

      assert.equal((await stat(join(dir, 'logs', 'engine.log'))).mode & 0o777, 0o600);
      assert.equal((await stat(join(dir, 'logs'))).mode & 0o777, 0o700);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("the receiver's 500 carries the errorId of its log line; the delivery's body and signature header stay out of the log", async () => {
    let errorId = '';
    let endpointId = '';
    const dir = await withEngine(async (t, clock) => {
      endpointId = await t.endpoint({ name: 'logged', validationType: 'none' });
      clock.armed = true;
      const r = await t.deliver(`/webhook/${endpointId}/orders?token=${SECRET}`, {
        body: JSON.stringify({ marker: BODY_MARKER }),
        headers: { 'content-type': 'application/json', 'x-signature': SECRET },
      });
      clock.armed = false;
      assert.equal(r.status, 500);
      assert.equal(r.body.error.code, 'INTERNAL_ERROR');
      errorId = r.body.error.details.errorId;
      assert.match(errorId, /^err_[0-9a-z]{16}$/);
    });
    try {
      const { text, lines } = await readLog(dir);
      const line = lines.find((l) => l.errorId === errorId);
      assert.ok(line, text);
      assert.equal(line.listener, 'receiver');
      assert.equal(line.method, 'POST');
      assert.equal(line.path, `/webhook/${endpointId}/orders`, 'the query string is not logged');
      assert.match(line.err!.stack, /FailingClock\.now/);
      assert.equal(text.includes(SECRET), false);
      assert.equal(text.includes(BODY_MARKER), false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("a share page's 500 (JSON and HTML) shows the errorId; the share token is masked in the log", async () => {
    const ids: string[] = [];
    let shareToken = '';
    const dir = await withEngine(async (t, clock) => {
      const ep = await t.endpoint({ name: 'shared', validationType: 'none' });
      const logId = (await t.deliver(`/webhook/${ep}`, { body: 'hello' })).body.data.id as string;
      const url = (await t.api('POST', `/api/webhooks/${logId}/share`)).body.data.url as string;
      shareToken = url.slice(url.lastIndexOf('/share/') + '/share/'.length);

      clock.armed = true;
      const json = await fetch(url, { headers: { accept: 'application/json' } });
      const html = await fetch(url, { headers: { accept: 'text/html' } });
      clock.armed = false;
      assert.equal(json.status, 500);
      const body = (await json.json()) as { error: { code: string; details: { errorId: string } } };
      assert.equal(body.error.code, 'INTERNAL_ERROR');
      ids.push(body.error.details.errorId);
      assert.equal(html.status, 500);
      const page = await html.text();
      const shown = /err_[0-9a-z]{16}/.exec(page);
      assert.ok(shown, page);
      ids.push(shown[0]);
    });
    try {
      const { text, lines } = await readLog(dir);
      assert.notEqual(ids[0], ids[1], 'each fault has its own id');
      for (const id of ids) {
        const line = lines.find((l) => l.errorId === id);
        assert.ok(line, `${id} in ${text}`);
        assert.equal(line.listener, 'share');
        assert.equal(line.path, '/share/<token>');
      }
      assert.equal(text.includes(shareToken), false, 'the share token is not in the log');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("start-up (with ports) and stop are logged at info; a client's bad JSON is not an engine fault", async () => {
    let apiPort = 0;
    let receiverPort = 0;
    const dir = await withEngine(async (t) => {
      apiPort = Number(new URL(t.engine.apiUrl).port);
      receiverPort = Number(new URL(t.engine.receiverUrl).port);
      const bad = await t.api('POST', '/api/endpoints', { body: '{"name": ' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.code, 'INVALID_JSON');
      assert.equal(bad.body.error.details, undefined);
      await t.engine.checkpoint();
    });
    try {
      const { lines } = await readLog(dir);
      const started = lines.find((l) => l.msg === 'engine started');
      assert.ok(started);
      assert.equal(started.level, 'info');
      assert.equal(started.apiPort, apiPort);
      assert.equal(started.receiverPort, receiverPort);
      const checkpoint = lines.find((l) => l.msg === 'checkpoint');
      assert.ok(checkpoint);
      assert.equal(typeof checkpoint.bytes, 'number');
      assert.equal(typeof checkpoint.ms, 'number');
      // The one asked for, and the store's own on stop, between stopping and stopped.
      assert.deepEqual(
        lines.map((l) => l.msg).filter((m) => m.startsWith('engine') || m === 'checkpoint'),
        ['engine started', 'checkpoint', 'engine stopping', 'checkpoint', 'engine stopped'],
      );
      assert.deepEqual(
        lines.filter((l) => l.level === 'error'),
        [],
        'nothing was logged as a fault',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('hookscope serve writes the file and readable lines on stderr', async () => {
    const dir = await makeTempDir();
    try {
      const serve = await startServe(dir);
      let code: number | null = null;
      try {
        serve.child.kill('SIGTERM');
      } finally {
        code = await serve.exited;
      }
      assert.equal(code, 0, serve.output());
      assert.match(serve.output(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO {2}engine stopped ms=\d+$/m);
      const { lines } = await readLog(dir);
      const started = lines.find((l) => l.msg === 'engine started');
      assert.ok(started);
      assert.equal(started.apiUrl, serve.apiUrl);
      assert.equal(started.receiverUrl, serve.receiverUrl);
      assert.equal(started.pid, serve.child.pid);
      assert.equal(lines.at(-1)!.msg, 'engine stopped');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('tunnel state changes are logged at info, once per change, not per retry', async () => {
    const unreachable = await closedPort();
    const dir = await makeTempDir();
    try {
      const t = await startTestEngine(
        {
          tunnel: {
            ...DEFAULT_CONFIG.tunnel,
            enabled: true,
            host: unreachable.url,
            backoffMinMs: 10,
            backoffMaxMs: 20,
          },
        },
        {},
        dir,
      );
      try {
        // Several failed attempts: each one is a retry, not a new state.
        for (let i = 0; i < 500 && t.engine.tunnel.status().attempts < 3; i++)
          await new Promise((r) => setTimeout(r, 20));
        assert.ok(t.engine.tunnel.status().attempts >= 3, 'the tunnel retried');
      } finally {
        await t.stop();
      }
      const { lines } = await readLog(dir);
      const states = lines.filter((l) => l.msg === 'tunnel state');
      assert.ok(states.every((l) => l.level === 'info'));
      const sequence = states.map((l) => l.state);
      assert.deepEqual(
        sequence,
        ['connecting', 'offline', 'disabled'],
        'retries while offline add no line; stopping closes the tunnel',
      );
      assert.equal(states[1]!.host, unreachable.url);
      assert.match(String(states[1]!.lastError), /ECONNREFUSED/);
    } finally {
      await unreachable.release();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
