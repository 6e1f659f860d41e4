import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { ForwardChoice } from '../../electron/forward-input.ts';
import type { ForwardManager, ForwardStatus } from '../../electron/forward-manager.ts';
import { FORWARD_DIR, forwardManager } from '../../electron/forward-wiring.ts';
import { LoginStore } from '../../server/cli/login-store.ts';
import { formatClock } from '../../server/cli/render.ts';
import { send } from '../../server/replay/http-sender.ts';
import { describe, test } from '../helpers/node-test.ts';
import { TargetServer, waitUntil } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

// The desktop app's "Forward from this computer" with its real parts, in this process: the forward manager
// (electron/forward-wiring.ts) against a real engine standing in for the team server, a recording node:http
// server on 127.0.0.1 port 0 standing in for the laptop's dev server, the real http-sender.

const FAST = { initialMs: 20, maxMs: 100 };

/** The manager as main.ts makes it, its choices in memory (desktop.json's part is tested in the unit tests). */
function manager(dataDir: string, warnings: string[] = []): ForwardManager {
  const choices = new Map<string, ForwardChoice[]>();
  return forwardManager({
    dataDir,
    choices: {
      load: (url) => choices.get(url) ?? [],
      save: async (url, list) => {
        choices.set(url, list);
      },
    },
    send,
    logger: { warn: (_obj: unknown, message?: string) => warnings.push(String(message)) },
    retry: FAST,
    engineRetry: FAST,
  });
}

async function signInCode(t: TestEngine): Promise<string> {
  const r = await t.api<{ data: { code: string } }>('POST', '/api/session/codes');
  assert.equal(r.status, 201);
  return r.body.data.code;
}

function forwardOf(m: ForwardManager, team: string, endpointId: string): ForwardStatus | undefined {
  const list = m.list(team);
  assert.ok(list.ok, JSON.stringify(list));
  return list.value.find((f) => f.endpointId === endpointId);
}

const waitForState = (m: ForwardManager, team: string, ep: string, state: ForwardStatus['state']) =>
  waitUntil(() => {
    const f = forwardOf(m, team, ep);
    return f?.state === state ? f : null;
  }, `the forward to be ${state}`);

/** The delivery's attempts recorded by the engine, oldest first: [trigger, status or error code, targetUrl]. */
async function history(t: TestEngine, logId: string): Promise<[string, number | string, string][]> {
  const r = await t.api<{
    data: { history: { trigger: string; status: number | null; error: { code: string } | null; targetUrl: string }[] };
  }>('GET', `/api/replay/${logId}/history`);
  return r.body.data.history
    .map((h): [string, number | string, string] => [h.trigger, h.status ?? h.error!.code, h.targetUrl])
    .reverse();
}

describe('forward from this computer (the main process), against a real engine as the team server', () => {
  test(
    'live deliveries in order, byte for byte with sub-path and query, each in its history from this computer; ' +
      'stopped: nothing sent; started again: caught up, then live; a target down: retried, then delivered',
    async () => {
      const t = await startTestEngine();
      const target = await TargetServer.start();
      const team = new URL(t.engine.apiUrl).origin;
      const m = manager(t.dataDir);
      try {
        const ep = await t.endpoint({ name: 'laptop', validationType: 'none' });
        await m.show({ kind: 'team', url: team });
        assert.deepEqual(
          await m.start(team, { endpointId: ep, targetUrl: `${target.url}/hooks`, signInCode: await signInCode(t) }),
          { ok: true },
        );
        await waitForState(m, team, ep, 'live');

        const bodies = [Buffer.from('{"n":1,"note":"é"}'), Buffer.from([0, 255, 1, 254]), Buffer.from('third')];
        const paths = ['/orders/1?x=1&y=2', '/bin', '/orders/3?x=3'];
        const ids: string[] = [];
        for (const [i, body] of bodies.entries()) {
          const r = await t.deliver(`/webhook/${ep}${paths[i]}`, {
            body,
            headers: {
              'content-type': i === 1 ? 'application/octet-stream' : 'application/json',
              'X-Order': String(i),
            },
          });
          assert.equal(r.status, 200);
          ids.push(r.body.data.id as string);
        }
        await target.waitForCount(3);
        assert.deepEqual(
          target.received.map((r) => [r.method, r.url, r.headers['x-order']]),
          [
            ['POST', '/hooks/orders/1?x=1&y=2', '0'],
            ['POST', '/hooks/bin', '1'],
            ['POST', '/hooks/orders/3?x=3', '2'],
          ],
        );
        assert.deepEqual(
          target.received.map((r) => r.body),
          bodies,
        );
        for (const [i, id] of ids.entries()) {
          const url = `${target.url}/hooks${paths[i]}`;
          await waitUntil(async () => (await history(t, id)).length === 1, `the attempt of ${id} in its history`);
          assert.deepEqual(await history(t, id), [['client', 200, url]]);
        }
        const last = await waitUntil(() => {
          const line = forwardOf(m, team, ep)?.lastLine;
          return line?.includes('/orders/3') ? line : null;
        }, 'the line of the third delivery');
        const logged = await t.api<{ data: { receivedAt: string } }>('GET', `/api/webhooks/logs/${ids[2]}`);
        assert.match(
          last,
          new RegExp(`^${formatClock(logged.body.data.receivedAt)} {2}- {2}POST /orders/3\\?x=3 {2}200 {2}\\d+ ms$`),
        );

        // Stopped: a delivery arrives at the team server, not here.
        assert.deepEqual(await m.stop(team, { endpointId: ep }), { ok: true });
        assert.equal(forwardOf(m, team, ep)?.state, 'stopped');
        const missed = await t.deliver(`/webhook/${ep}/while-off`, { body: 'missed' });
        assert.equal(missed.status, 200);
        const stored = await t.api<{ data: { total: number } }>('GET', `/api/webhooks/logs?endpointId=${ep}`);
        assert.equal(stored.body.data.total, 4);
        assert.equal(target.received.length, 3, 'nothing is forwarded while stopped');

        // Started again: what arrived meanwhile first, then live ones.
        await m.start(team, { endpointId: ep, targetUrl: `${target.url}/hooks`, signInCode: await signInCode(t) });
        await target.waitForCount(4);
        assert.deepEqual(
          [target.received[3]!.url, target.received[3]!.body.toString()],
          ['/hooks/while-off', 'missed'],
        );
        await waitForState(m, team, ep, 'live');
        await t.deliver(`/webhook/${ep}/after`, { body: 'live again' });
        await target.waitForCount(5);
        assert.equal(target.received[4]!.url, '/hooks/after');
        assert.match(forwardOf(m, team, ep)!.lastLine ?? '', /POST \/while-off|POST \/after/);

        // The dev server down: the attempt fails, is reported, retried; delivered once it is back.
        target.down = true;
        const retried = await t.deliver(`/webhook/${ep}/retry-me`, { body: 'retry' });
        const retriedId = retried.body.data.id as string;
        const retrying = await waitForState(m, team, ep, 'retrying');
        assert.match(retrying.lastLine ?? '', /POST \/retry-me {2}.*\(attempt \d+ failed; retrying in \d+ ms\)$/);
        target.down = false;
        await target.waitForCount(6);
        assert.deepEqual([target.received[5]!.url, target.received[5]!.body.toString()], ['/hooks/retry-me', 'retry']);
        await waitForState(m, team, ep, 'live');
        const attempts = await waitUntil(async () => {
          const h = await history(t, retriedId);
          return h.at(-1)?.[1] === 200 ? h : null;
        }, 'the delivered attempt in the history');
        assert.ok(attempts.length >= 2, JSON.stringify(attempts));
        for (const a of attempts.slice(0, -1))
          assert.deepEqual(a, ['client', 'TARGET_UNREACHABLE', `${target.url}/hooks/retry-me`]);
        assert.equal(target.received.length, 6, 'none twice');
      } finally {
        await m.stopAll();
        await target.close();
        await t.stop();
      }
    },
  );

  test('a relaunch resumes a forward that was on with the kept token and catches up; a refused token stops it', async () => {
    const t = await startTestEngine();
    const target = await TargetServer.start();
    const team = new URL(t.engine.apiUrl).origin;
    const before = manager(t.dataDir);
    let after: ForwardManager | null = null;
    try {
      const ep = await t.endpoint({ name: 'laptop', validationType: 'none' });
      await before.show({ kind: 'team', url: team });
      await before.start(team, { endpointId: ep, targetUrl: target.url, signInCode: await signInCode(t) });
      await waitForState(before, team, ep, 'live');
      // The app quits: the runs stop, their places are written; a delivery arrives while it is closed.
      await before.stopAll();
      await t.deliver(`/webhook/${ep}/while-closed`, { body: 'closed' });

      // The next launch: a new manager on the same files and choices, the team server shown.
      const choices = new Map<string, ForwardChoice[]>([
        [team, [{ endpointId: ep, targetUrl: `${target.url}/`, on: true }]],
      ]);
      after = forwardManager({
        dataDir: t.dataDir,
        choices: { load: (url) => choices.get(url) ?? [], save: async (url, list) => void choices.set(url, list) },
        send,
        logger: { warn: () => undefined },
        retry: FAST,
        engineRetry: FAST,
      });
      await after.show({ kind: 'team', url: team });
      await target.waitForCount(1);
      assert.equal(target.received[0]!.url, '/while-closed');
      await after.stopAll();

      // A token the team server does not know (another install's key): the forward stops and says so.
      const other = await startTestEngine();
      try {
        const logins = new LoginStore(join(t.dataDir, FORWARD_DIR));
        const kept = (await logins.find(team))!;
        await logins.save(team, { ...kept, token: await other.engine.issueToken() });
      } finally {
        await other.stop();
      }
      await after.show({ kind: 'local' });
      await after.show({ kind: 'team', url: team });
      const expired = await waitForState(after, team, ep, 'stopped');
      assert.equal(expired.lastLine, 'Sign-in expired: start it again.');
      assert.deepEqual(choices.get(team), [{ endpointId: ep, targetUrl: `${target.url}/`, on: false }]);
    } finally {
      await before.stopAll();
      await after?.stopAll();
      await target.close();
      await t.stop();
    }
  });
});
