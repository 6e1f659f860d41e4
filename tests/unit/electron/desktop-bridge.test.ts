import assert from 'node:assert/strict';
import { desktopBridge, type DesktopBridgeDeps } from '../../../electron/desktop-bridge.ts';
import { EngineSwitch, type EngineChoice } from '../../../electron/engine-choice.ts';
import type { SendInput } from '../../../server/replay/http-sender.ts';
import { describe, test } from '../../helpers/node-test.ts';

const LOCAL = 'http://127.0.0.1:4680';
const TEAM = 'https://hooks.example.com';

/** A bridge whose window, settings file and team server check are recorded in memory. */
function harness(options: { initial?: EngineChoice; notHookscope?: string; unloadable?: string } = {}) {
  const loads: string[] = [];
  const saves: EngineChoice[] = [];
  const checked: string[] = [];
  const sent: SendInput[] = [];
  // The forward manager's calls, as the bridge makes them (the manager itself: forward-manager.test.ts).
  const forwardCalls: unknown[][] = [];
  let code = 0;
  const engineSwitch = new EngineSwitch(options.initial ?? { kind: 'local' }, LOCAL);
  const deps: DesktopBridgeDeps = {
    engineSwitch,
    checkTeamServer: async (url) => {
      checked.push(url);
      return options.notHookscope ?? null;
    },
    load: async (url) => {
      if (options.unloadable && url.startsWith(options.unloadable)) throw new Error('ERR_CONNECTION_REFUSED');
      loads.push(url);
    },
    localSignInPage: async () => `${LOCAL}/#/sign-in/local${++code}`,
    save: async (choice) => {
      saves.push(choice);
    },
    send: async (input) => {
      sent.push(input);
      return {
        status: 204,
        responseHeaders: [['X-Seen', 'yes']],
        responseBody: Buffer.from('ok'),
        responseTruncated: false,
        responseTime: 4,
        error: null,
      };
    },
    forwards: {
      show: async (choice) => {
        forwardCalls.push(['show', choice, loads.length]);
      },
      start: async (team, input) => {
        forwardCalls.push(['start', team, input]);
        return { ok: true };
      },
      stop: async (team, input) => {
        forwardCalls.push(['stop', team, input]);
        return { ok: true };
      },
      list: (team) => {
        forwardCalls.push(['list', team]);
        return { ok: true, value: [] };
      },
    },
  };
  return { bridge: desktopBridge(deps), engineSwitch, loads, saves, checked, sent, forwardCalls };
}

describe('the desktop bridge', () => {
  test("connect: checks the server, switches the origin, loads the server's sign-in link and keeps the choice", async () => {
    const h = harness();
    assert.deepEqual(h.bridge.engine(), { kind: 'local' });
    const answer = await h.bridge.connectTeamServer({ url: 'https://hooks.example.com/', signInLink: 'abc123' });
    assert.deepEqual(answer, { ok: true });
    assert.deepEqual(h.checked, [TEAM]);
    assert.deepEqual(h.loads, [`${TEAM}/#/sign-in/abc123`]);
    assert.deepEqual(h.saves, [{ kind: 'team', url: TEAM }]);
    assert.deepEqual(h.bridge.engine(), { kind: 'team', url: TEAM });
    assert.equal(h.engineSwitch.origin(), TEAM);
  });

  test('a refused input answers its sentence and changes nothing', async () => {
    const h = harness();
    const cases: [unknown, string][] = [
      [undefined, 'Give both the team server URL and the sign-in link.'],
      [{ url: TEAM }, 'Give both the team server URL and the sign-in link.'],
      [
        { url: 'http://hooks.example.com', signInLink: 'abc' },
        'The team server must be reached over https:// (plain http:// only on this computer, e.g. http://127.0.0.1).',
      ],
      [
        { url: TEAM, signInLink: 'https://evil.example.com/#/sign-in/abc' },
        'The sign-in link is not on the team server (hooks.example.com); it is on evil.example.com.',
      ],
    ];
    for (const [input, error] of cases)
      assert.deepEqual(await h.bridge.connectTeamServer(input), { ok: false, error }, JSON.stringify(input));
    assert.deepEqual([h.checked, h.loads, h.saves], [[], [], []]);
    assert.deepEqual(h.bridge.engine(), { kind: 'local' });
  });

  test('a server that is not a Hookscope engine is said in Settings; the window stays', async () => {
    const h = harness({
      notHookscope: 'The team server at https://hooks.example.com did not answer (it could not be reached).',
    });
    assert.deepEqual(await h.bridge.connectTeamServer({ url: TEAM, signInLink: 'abc' }), {
      ok: false,
      error: 'The team server at https://hooks.example.com did not answer (it could not be reached).',
    });
    assert.deepEqual([h.loads, h.saves], [[], []]);
    assert.equal(h.engineSwitch.origin(), LOCAL);
  });

  test('a sign-in page that does not load: back to the engine shown before, nothing kept', async () => {
    const h = harness({ unloadable: TEAM });
    assert.deepEqual(await h.bridge.connectTeamServer({ url: TEAM, signInLink: 'abc' }), {
      ok: false,
      error: 'The team server at https://hooks.example.com did not load in the window.',
    });
    assert.deepEqual(h.loads, [`${LOCAL}/#/sign-in/local1`]);
    assert.deepEqual(h.saves, []);
    assert.deepEqual(h.bridge.engine(), { kind: 'local' });

    const other = harness({ initial: { kind: 'team', url: 'https://old.example.com' }, unloadable: TEAM });
    await other.bridge.connectTeamServer({ url: TEAM, signInLink: 'abc' });
    assert.deepEqual(other.loads, ['https://old.example.com/']);
    assert.deepEqual(other.bridge.engine(), { kind: 'team', url: 'https://old.example.com' });
  });

  test('"Use this computer": the local origin, a fresh local sign-in link, the choice kept; a delivery page when given', async () => {
    const h = harness({ initial: { kind: 'team', url: TEAM } });
    await h.bridge.useThisComputer();
    assert.deepEqual(h.bridge.engine(), { kind: 'local' });
    assert.equal(h.engineSwitch.origin(), LOCAL);
    await h.bridge.showThisComputer(`${LOCAL}/#/logs/log_1`);
    assert.deepEqual(h.loads, [`${LOCAL}/#/sign-in/local1`, `${LOCAL}/#/logs/log_1`]);
    assert.deepEqual(h.saves, [{ kind: 'local' }, { kind: 'local' }]);
  });

  test('send from this computer: a loopback request goes to the injected sender; any other is refused unsent', async () => {
    const h = harness({ initial: { kind: 'team', url: TEAM } });
    const request = {
      method: 'PUT',
      url: 'http://localhost:3000/hook',
      headers: [
        ['Host', 'localhost:3000'],
        ['X-A', '1'],
      ],
      body: 'aGk=',
      bodyEncoding: 'base64',
      timeoutMs: 2000,
    };
    assert.deepEqual(await h.bridge.sendFromThisComputer(request), {
      ok: true,
      result: {
        status: 204,
        responseHeaders: [['X-Seen', 'yes']],
        responseBody: 'b2s=',
        responseTruncated: false,
        responseTime: 4,
        error: null,
      },
    });
    assert.deepEqual(
      h.sent.map((s) => [s.method, s.url.href, s.headers, s.body.toString(), s.timeoutMs]),
      [
        [
          'PUT',
          'http://localhost:3000/hook',
          [
            ['Host', 'localhost:3000'],
            ['X-A', '1'],
          ],
          'hi',
          2000,
        ],
      ],
    );
    assert.deepEqual(await h.bridge.sendFromThisComputer({ ...request, url: 'http://10.0.0.5/', headers: [] }), {
      ok: false,
      error:
        'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://10.0.0.5/ is sent by the team server.',
    });
    assert.equal(h.sent.length, 1, 'nothing more was sent');
    assert.deepEqual([h.loads, h.saves], [[], []], 'sending changes no engine choice');
  });

  test('forward from this computer: asked of the manager for the team server shown; refused on this computer', async () => {
    const h = harness();
    const refusal = {
      ok: false,
      error: 'Forwarding from this computer is for a team server; this computer forwards by itself.',
    };
    const input = { endpointId: 'ep_one', targetUrl: 'http://localhost:3000/', signInCode: 'abc' };
    assert.deepEqual(await h.bridge.startForwardFromThisComputer(input), refusal);
    assert.deepEqual(await h.bridge.stopForwardFromThisComputer({ endpointId: 'ep_one' }), refusal);
    assert.deepEqual(h.bridge.forwardsFromThisComputer(), refusal);
    assert.deepEqual(h.forwardCalls, []);

    // Connecting tells the manager before the page loads (its first question is answered); the way back stops them.
    await h.bridge.connectTeamServer({ url: TEAM, signInLink: 'abc' });
    assert.deepEqual(await h.bridge.startForwardFromThisComputer(input), { ok: true });
    assert.deepEqual(await h.bridge.stopForwardFromThisComputer({ endpointId: 'ep_one' }), { ok: true });
    assert.deepEqual(h.bridge.forwardsFromThisComputer(), { ok: true, forwards: [] });
    await h.bridge.useThisComputer();
    assert.deepEqual(h.forwardCalls, [
      ['show', { kind: 'team', url: TEAM }, 0],
      ['start', TEAM, input],
      ['stop', TEAM, { endpointId: 'ep_one' }],
      ['list', TEAM],
      ['show', { kind: 'local' }, 1],
    ]);

    // A team server that does not load: the manager is told the engine shown before.
    const failed = harness({ unloadable: TEAM });
    await failed.bridge.connectTeamServer({ url: TEAM, signInLink: 'abc' });
    assert.deepEqual(failed.forwardCalls, [
      ['show', { kind: 'team', url: TEAM }, 0],
      ['show', { kind: 'local' }, 0],
    ]);
  });
});
