import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from '../helpers/node-test.ts';
import { accountIdFor, LOCAL_ACCOUNT } from '../../server/auth/account-id.ts';
import type { EngineEvent } from '../../server/events/event-bus.ts';
import { runCli, startServe } from '../helpers/cli-process.ts';
import { TargetServer, waitUntil } from '../helpers/target-server.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

// Small retry delays so an outage is retried many times within the test; nothing asserts on time.
const FAST = { forward: { initialBackoffMs: 20, maxBackoffMs: 200, timeoutMs: 5_000 } };

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const bodies = (n: number, tag: string) => Array.from({ length: n }, (_, i) => JSON.stringify({ tag, seq: i }));

async function forwardStatus(t: TestEngine, endpointId: string) {
  const r = await t.api('GET', `/api/endpoints/${endpointId}/forward`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data;
}

describe('forward queue reliability', () => {
  test('while the target is down deliveries queue and retry; when it comes back on the same port they arrive in order', async () => {
    const t = await startTestEngine(FAST);
    const target = await TargetServer.start();
    target.down = true;
    const port = target.port;
    const events: EngineEvent[] = [];
    const unsubscribe = t.engine.events.subscribe(accountIdFor(LOCAL_ACCOUNT), (e) => {
      if (e.type === 'forward.updated') events.push(e);
    });
    try {
      const ep = await t.endpoint({
        name: 'outage',
        validationType: 'none',
        forwardUrl: `http://127.0.0.1:${port}/hook`,
      });
      const sent = bodies(5, 'outage');
      for (const body of sent) {
        // The sender's 2xx never waits for the forward target.
        assert.equal((await t.deliver(`/webhook/${ep}`, { body })).status, 200);
      }
      const down = await waitUntil(async () => {
        const s = await forwardStatus(t, ep);
        return s.state === 'retrying' && s.pending === sent.length && s.attempts >= 2 && s;
      }, 'the queue to be retrying with everything pending');
      assert.equal(down.lastError.code, 'TARGET_UNREACHABLE');
      assert.ok(down.lastError.message.includes(`127.0.0.1:${port}`), down.lastError.message);
      assert.ok(down.nextAttemptAt && !Number.isNaN(Date.parse(down.nextAttemptAt)));
      assert.equal(down.lastDeliveredAt, null);
      assert.ok(
        events.some((e) => (e.data as any).endpointId === ep && (e.data as any).state === 'retrying'),
        'forward.updated was published',
      );

      target.down = false; // the target comes back on the same port
      await target.waitForCount(sent.length);
      assert.deepEqual(
        target.received.map((r) => r.body.toString()),
        sent,
      );

      const up = await waitUntil(async () => {
        const s = await forwardStatus(t, ep);
        return s.state === 'idle' && s.pending === 0 && s;
      }, 'the queue to drain');
      assert.equal(up.attempts, 0);
      assert.ok(up.lastDeliveredAt);
      assert.ok(
        events.some(
          (e) => (e.data as any).endpointId === ep && (e.data as any).state === 'idle' && (e.data as any).pending === 0,
        ),
      );

      // The head was retried (every attempt recorded); the others were sent once the target answered.
      const logs = (await t.api('GET', `/api/webhooks/logs?endpointId=${ep}`)).body.data.logs as { id: string }[];
      const firstLog = logs.at(-1)!.id;
      const h = (await t.api('GET', `/api/replay/${firstLog}/history`)).body.data;
      assert.ok(h.total >= 3, `the head was tried ${h.total} times`);
      assert.equal(h.history[0].status, 200);
      assert.ok(h.history.slice(1).every((e: any) => e.error?.code === 'TARGET_UNREACHABLE' && e.status === null));
    } finally {
      unsubscribe();
      await target.close();
      await t.stop();
    }
  });

  test('the queue survives an engine stop and restart on the same data directory', async (ctx) => {
    const dir = await makeTempDir('hookscope-forward-');
    dirs.push(dir);
    const target = await TargetServer.start();
    target.down = true;
    const port = target.port;
    ctx.after(() => target.close()); // also when a step below fails (close is idempotent)
    const first = await startTestEngine(FAST, {}, dir);
    const sent = bodies(4, 'restart');
    let ep: string;
    try {
      ep = await first.endpoint({ name: 'restart', validationType: 'none', forwardUrl: `http://127.0.0.1:${port}/` });
      for (const body of sent) assert.equal((await first.deliver(`/webhook/${ep}`, { body })).status, 200);
      await waitUntil(async () => {
        const s = await forwardStatus(first, ep);
        return s.state === 'retrying' && s.pending === sent.length;
      }, 'everything queued');
    } finally {
      await first.stop();
    }

    target.down = false; // the target comes back on the same port
    const second = await startTestEngine(FAST, {}, dir);
    try {
      await target.waitForCount(sent.length);
      assert.deepEqual(
        target.received.map((r) => r.body.toString()),
        sent,
      );
      await waitUntil(async () => {
        const s = await forwardStatus(second, ep);
        return s.state === 'idle' && s.pending === 0;
      }, 'the resumed queue to drain');
    } finally {
      await second.stop();
      await target.close();
    }
  });

  test('deliveries acknowledged before a SIGKILL are forwarded, in order, after the restart', async (ctx) => {
    const dir = await makeTempDir('hookscope-forward-kill-');
    dirs.push(dir);
    await writeFile(join(dir, 'config.json'), JSON.stringify({ forward: { initialBackoffMs: 20, maxBackoffMs: 200 } }));
    const token = (await runCli(['token', '--data-dir', dir])).stdout.trim();
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const target = await TargetServer.start();
    target.down = true;
    const port = target.port;
    ctx.after(() => target.close()); // also when a step below fails (close is idempotent)

    const s1 = await startServe(dir);
    let endpointId: string;
    const sent = bodies(20, 'kill');
    try {
      const created = await fetch(`${s1.apiUrl}/api/endpoints`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          name: 'kill',
          validationType: 'none',
          forwardUrl: `http://127.0.0.1:${port}/after-crash`,
        }),
      });
      endpointId = ((await created.json()) as { data: { id: string } }).data.id;
      for (const body of sent) {
        const r = await fetch(`${s1.receiverUrl}/webhook/${endpointId}`, { method: 'POST', body });
        assert.equal(r.status, 200);
        await r.arrayBuffer();
      }
    } finally {
      s1.child.kill('SIGKILL');
      await s1.exited;
    }

    target.down = false; // the target comes back on the same port
    const s2 = await startServe(dir);
    try {
      await target.waitForCount(sent.length, 30_000);
      assert.deepEqual(
        target.received.map((r) => r.body.toString()),
        sent,
      );
      assert.ok(target.received.every((r) => r.url === '/after-crash'));
    } finally {
      s2.child.kill('SIGTERM');
      await s2.exited;
      await target.close();
    }
  });
});
