import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, test } from '../../helpers/node-test.ts';
import type { CustomResponse } from '../../../server/endpoints/custom-response.ts';
import { DelayedAnswers } from '../../../server/receiver/delayed-answers.ts';

/** Just what DelayedAnswers and the answer writer touch, recorded. */
class FakeResponse extends EventEmitter {
  destroyed = false;
  shouldKeepAlive = true;
  written: { status: number; headers: string[]; body: string; keepAlive: boolean }[] = [];
  private status = 0;
  private headers: string[] = [];
  writeHead(status: number, headers: string[]): void {
    this.status = status;
    this.headers = headers;
  }
  end(body: Buffer): void {
    this.written.push({
      status: this.status,
      headers: this.headers,
      body: body.toString('utf8'),
      keepAlive: this.shouldKeepAlive,
    });
  }
}

const answer = (delayMs: number): CustomResponse => ({ status: 503, headers: [], body: 'later', delayMs });
/** What every custom answer starts with (server/endpoints/custom-response.ts), then the framing. */
const written = (logId: string): string[] => [
  'Content-Security-Policy',
  "sandbox; default-src 'none'",
  'X-Content-Type-Options',
  'nosniff',
  'Content-Length',
  '5',
  'Hookscope-Log-Id',
  logId,
];
const asRes = (f: FakeResponse): ServerResponse => f as unknown as ServerResponse;

describe('DelayedAnswers', () => {
  test('a sender that hangs up ends the wait: nothing is written and no timer is left', async () => {
    const answers = new DelayedAnswers((e) => assert.fail(String(e)));
    const res = new FakeResponse();
    answers.send(asRes(res), answer(30_000), 'log_1');
    assert.equal(answers.waiting, 1);
    res.destroyed = true;
    res.emit('close');
    await tick();
    assert.equal(answers.waiting, 0);
    assert.deepEqual(res.written, []);
    assert.equal(res.listenerCount('close'), 0);
  });

  test('flush answers every waiting delivery at once and closes their connections; later ones do not wait', async () => {
    const answers = new DelayedAnswers((e) => assert.fail(String(e)));
    const a = new FakeResponse();
    const b = new FakeResponse();
    answers.send(asRes(a), answer(30_000), 'log_a');
    answers.send(asRes(b), answer(20_000), 'log_b');
    assert.equal(answers.waiting, 2);
    await answers.flush();
    assert.equal(answers.waiting, 0);
    const expected = (id: string) => ({
      status: 503,
      headers: written(id),
      body: 'later',
      keepAlive: false,
    });
    assert.deepEqual(a.written, [expected('log_a')]);
    assert.deepEqual(b.written, [expected('log_b')]);

    const c = new FakeResponse();
    answers.send(asRes(c), answer(30_000), 'log_c');
    assert.equal(answers.waiting, 0, 'no wait once the engine stops');
    await answers.flush();
    assert.deepEqual(c.written, [expected('log_c')]);
  });

  test('no delay: answered synchronously, the connection kept alive', () => {
    const answers = new DelayedAnswers((e) => assert.fail(String(e)));
    const res = new FakeResponse();
    answers.send(asRes(res), answer(0), 'log_0');
    assert.deepEqual(res.written, [{ status: 503, headers: written('log_0'), body: 'later', keepAlive: true }]);
  });
});
