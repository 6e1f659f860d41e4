import assert from 'node:assert/strict';
import {
  parseForwardChoices,
  parseStartForward,
  parseStopForward,
  type ForwardChoice,
} from '../../../electron/forward-input.ts';
import {
  ForwardManager,
  SIGN_IN_EXPIRED,
  type ForwardRunEventsFor,
  type IssuedToken,
} from '../../../electron/forward-manager.ts';
import { SignInExpiredError } from '../../../electron/forward-run.ts';
import { describe, test } from '../../helpers/node-test.ts';

const TEAM = 'https://hooks.example.com';
const OTHER = 'https://other.example.com';
const NOW = Date.parse('2026-01-10T12:00:00Z');
const FAR = '2026-02-09T12:00:00.000Z';
const start = (endpointId = 'ep_one', targetUrl = 'http://localhost:3000/hooks', signInCode = 'code1') => ({
  endpointId,
  targetUrl,
  signInCode,
});

/** A manager whose files, code trade and listener runs are in memory; each run's events are the test's to send. */
function harness(options: { choices?: Record<string, ForwardChoice[]>; tokens?: Record<string, IssuedToken> } = {}) {
  const choices = new Map(Object.entries(options.choices ?? {}));
  const tokens = new Map(Object.entries(options.tokens ?? {}));
  const runs: {
    teamUrl: string;
    endpointId: string;
    targetUrl: string;
    token: string;
    events: ForwardRunEventsFor;
    stopped: boolean;
  }[] = [];
  const traded: [string, string][] = [];
  const warnings: string[] = [];
  const manager = new ForwardManager({
    choices: {
      load: (url) => choices.get(url) ?? [],
      save: async (url, list) => {
        choices.set(url, list);
      },
    },
    tokens: {
      find: async (url) => tokens.get(url),
      save: async (url, issued) => {
        tokens.set(url, issued);
      },
    },
    tradeCode: async (url, code) => {
      traded.push([url, code]);
      if (code === 'spent')
        throw new Error('The team server refused the sign-in code (expired or already used): start again.');
      return { token: `token-${code}`, accountId: 'acc_1', account: 'ana', expiresAt: FAR };
    },
    startRun: (spec, events) => {
      const run = { ...spec, events, stopped: false };
      runs.push(run);
      return {
        stop: async () => {
          run.stopped = true;
          events.ended(null);
        },
      };
    },
    now: () => NOW,
    warn: (_err, message) => warnings.push(message),
  });
  const list = () => {
    const answer = manager.list(TEAM);
    assert.ok(answer.ok);
    return answer.value;
  };
  return { manager, choices, tokens, runs, traded, warnings, list };
}

describe('forward from this computer: the input of each call', () => {
  test('start: an endpoint id, a target on this computer (normalised), a sign-in code; else one sentence', () => {
    assert.deepEqual(parseStartForward(start('ep_0a9z', ' http://127.0.0.1:3000/h?x=1 ', 'Ab_-9')), {
      ok: true,
      value: { endpointId: 'ep_0a9z', targetUrl: 'http://127.0.0.1:3000/h?x=1', signInCode: 'Ab_-9' },
    });
    const refused: [unknown, string][] = [
      [undefined, 'endpointId must be an endpoint id (ep_...).'],
      [{ ...start(), endpointId: 'log_1' }, 'endpointId must be an endpoint id (ep_...).'],
      [{ ...start(), endpointId: 'ep_../x' }, 'endpointId must be an endpoint id (ep_...).'],
      [{ ...start(), endpointId: 7 }, 'endpointId must be an endpoint id (ep_...).'],
      [
        { ...start(), targetUrl: '' },
        'Enter the URL on this computer to forward to, e.g. http://localhost:3000/webhooks.',
      ],
      [
        { ...start(), targetUrl: 'http://10.0.0.5/hooks' },
        'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://10.0.0.5/ is sent by the team server.',
      ],
      [
        { ...start(), targetUrl: 'http://user:pw@localhost:3000/' },
        'The target URL must not carry a user name or password; send an Authorization header.',
      ],
      [{ ...start(), signInCode: 'a b' }, 'signInCode must be a one-time sign-in code from POST /api/session/codes.'],
      [
        { ...start(), signInCode: 'x'.repeat(201) },
        'signInCode must be a one-time sign-in code from POST /api/session/codes.',
      ],
      [
        { endpointId: 'ep_one', targetUrl: 'http://localhost:3000' },
        'signInCode must be a one-time sign-in code from POST /api/session/codes.',
      ],
    ];
    for (const [input, error] of refused)
      assert.deepEqual(parseStartForward(input), { ok: false, error }, JSON.stringify(input));
  });

  test('stop: an endpoint id; kept choices: the well-formed ones, the last per endpoint', () => {
    assert.deepEqual(parseStopForward({ endpointId: 'ep_one' }), { ok: true, value: 'ep_one' });
    for (const input of [null, 'ep_one', {}, { endpointId: 'ep_' }, { endpointId: 'ep_ONE' }])
      assert.deepEqual(
        parseStopForward(input),
        { ok: false, error: 'endpointId must be an endpoint id (ep_...).' },
        JSON.stringify(input),
      );
    assert.deepEqual(
      parseForwardChoices([
        { endpointId: 'ep_a', targetUrl: 'http://localhost:1/', on: true },
        { endpointId: 'ep_a', targetUrl: 'http://localhost:2/', on: false },
      ]),
      [{ endpointId: 'ep_a', targetUrl: 'http://localhost:2/', on: false }],
    );
  });
});

describe('the forward manager', () => {
  test('start: the code traded for a token kept per team server, the choice kept on, a run with that token', async () => {
    const h = harness();
    await h.manager.show({ kind: 'team', url: TEAM });
    assert.deepEqual(await h.manager.start(TEAM, start()), { ok: true });
    assert.deepEqual(h.traded, [[TEAM, 'code1']]);
    assert.equal(h.tokens.get(TEAM)?.token, 'token-code1');
    assert.deepEqual(h.choices.get(TEAM), [
      { endpointId: 'ep_one', targetUrl: 'http://localhost:3000/hooks', on: true },
    ]);
    assert.deepEqual(
      h.runs.map((r) => [r.teamUrl, r.endpointId, r.targetUrl, r.token]),
      [[TEAM, 'ep_one', 'http://localhost:3000/hooks', 'token-code1']],
    );
    assert.deepEqual(h.list(), [
      { endpointId: 'ep_one', targetUrl: 'http://localhost:3000/hooks', state: 'catching-up', lastLine: null },
    ]);
    // The run's state and line are what the page reads.
    h.runs[0]!.events.state('retrying');
    h.runs[0]!.events.line('12:00:01  -  POST /orders  503  4 ms  (attempt 1 failed; retrying in 1 s)');
    assert.deepEqual(h.list(), [
      {
        endpointId: 'ep_one',
        targetUrl: 'http://localhost:3000/hooks',
        state: 'retrying',
        lastLine: '12:00:01  -  POST /orders  503  4 ms  (attempt 1 failed; retrying in 1 s)',
      },
    ]);
  });

  test('a refused input or code starts nothing; a call for a team server not shown is refused', async () => {
    const h = harness();
    await h.manager.show({ kind: 'team', url: TEAM });
    assert.deepEqual(await h.manager.start(TEAM, start('ep_one', 'http://192.168.1.2/')), {
      ok: false,
      error:
        'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://192.168.1.2/ is sent by the team server.',
    });
    assert.deepEqual(await h.manager.start(TEAM, start('ep_one', 'http://localhost:3000/', 'spent')), {
      ok: false,
      error: 'The team server refused the sign-in code (expired or already used): start again.',
    });
    const notShown = { ok: false, error: 'Forwarding from this computer is for the team server shown.' };
    assert.deepEqual(await h.manager.start(OTHER, start()), notShown);
    assert.deepEqual(await h.manager.stop(OTHER, { endpointId: 'ep_one' }), notShown);
    assert.deepEqual(h.manager.list(OTHER), notShown);
    assert.deepEqual([h.runs, h.choices.size, h.tokens.size], [[], 0, 0]);
    assert.deepEqual(h.traded, [[TEAM, 'spent']]);
  });

  test('stop: the run ends, the choice is kept off with its target; start again replaces the run', async () => {
    const h = harness();
    await h.manager.show({ kind: 'team', url: TEAM });
    await h.manager.start(TEAM, start());
    h.runs[0]!.events.line('12:00:02  -  POST /orders  200  3 ms');
    assert.deepEqual(await h.manager.stop(TEAM, { endpointId: 'ep_one' }), { ok: true });
    assert.equal(h.runs[0]!.stopped, true);
    assert.deepEqual(h.choices.get(TEAM), [
      { endpointId: 'ep_one', targetUrl: 'http://localhost:3000/hooks', on: false },
    ]);
    assert.deepEqual(h.list(), [
      {
        endpointId: 'ep_one',
        targetUrl: 'http://localhost:3000/hooks',
        state: 'stopped',
        lastLine: '12:00:02  -  POST /orders  200  3 ms',
      },
    ]);
    await h.manager.start(TEAM, start('ep_one', 'http://localhost:4000/', 'code2'));
    await h.manager.start(TEAM, start('ep_one', 'http://localhost:5000/', 'code3'));
    assert.deepEqual(
      h.runs.map((r) => [r.targetUrl, r.stopped]),
      [
        ['http://localhost:3000/hooks', true],
        ['http://localhost:4000/', true],
        ['http://localhost:5000/', false],
      ],
    );
    // The replaced run's late events change nothing.
    h.runs[1]!.events.line('late');
    assert.deepEqual(
      h.list().map((f) => [f.targetUrl, f.state, f.lastLine]),
      [['http://localhost:5000/', 'catching-up', null]],
    );
  });

  test('at launch, forwards that were on resume with the kept token; an expired or missing token says to start again', async () => {
    const choices = {
      [TEAM]: [
        { endpointId: 'ep_on', targetUrl: 'http://localhost:3000/', on: true },
        { endpointId: 'ep_off', targetUrl: 'http://localhost:3001/', on: false },
      ],
    };
    const h = harness({
      choices,
      tokens: { [TEAM]: { token: 'kept', accountId: 'acc_1', account: 'ana', expiresAt: FAR } },
    });
    await h.manager.show({ kind: 'team', url: TEAM });
    assert.deepEqual(
      h.runs.map((r) => [r.endpointId, r.token]),
      [['ep_on', 'kept']],
    );
    assert.deepEqual(
      h.list().map((f) => [f.endpointId, f.state]),
      [
        ['ep_on', 'catching-up'],
        ['ep_off', 'stopped'],
      ],
    );

    const expired = harness({
      choices,
      tokens: { [TEAM]: { token: 'old', accountId: 'acc_1', account: 'ana', expiresAt: new Date(NOW).toISOString() } },
    });
    await expired.manager.show({ kind: 'team', url: TEAM });
    assert.deepEqual(expired.runs, []);
    assert.deepEqual(
      expired.list().map((f) => [f.endpointId, f.state, f.lastLine]),
      [
        ['ep_on', 'stopped', SIGN_IN_EXPIRED],
        ['ep_off', 'stopped', null],
      ],
    );
    assert.equal(SIGN_IN_EXPIRED, 'Sign-in expired: start it again.');
    assert.deepEqual(
      expired.choices.get(TEAM)?.map((c) => [c.endpointId, c.on]),
      [
        ['ep_off', false],
        ['ep_on', false],
      ],
    );

    const none = harness({ choices });
    await none.manager.show({ kind: 'team', url: TEAM });
    assert.deepEqual([none.runs, none.list()[0]!.lastLine], [[], SIGN_IN_EXPIRED]);
  });

  test('a token the team server refuses stops the forward with the sentence; any other end says why', async () => {
    const h = harness();
    await h.manager.show({ kind: 'team', url: TEAM });
    await h.manager.start(TEAM, start('ep_one'));
    await h.manager.start(TEAM, start('ep_two', 'http://localhost:3001/', 'code2'));
    h.runs[0]!.events.ended(new SignInExpiredError());
    h.runs[1]!.events.ended(
      new Error(
        'The team server built a request to http://127.0.0.1:9, not to http://localhost:3001; nothing was sent.',
      ),
    );
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      h.list().map((f) => [f.endpointId, f.state, f.lastLine]),
      [
        ['ep_one', 'stopped', 'Sign-in expired: start it again.'],
        [
          'ep_two',
          'stopped',
          'Stopped: The team server built a request to http://127.0.0.1:9, not to http://localhost:3001; nothing was sent.',
        ],
      ],
    );
    // Off, so the next launch does not try the refused token again.
    assert.deepEqual(
      h.choices.get(TEAM)?.map((c) => [c.endpointId, c.on]),
      [
        ['ep_two', true],
        ['ep_one', false],
      ],
    );
    assert.deepEqual(h.warnings, ['a forward from this computer stopped']);
  });

  test('showing this computer or another team server stops the runs; showing it again resumes them', async () => {
    const h = harness();
    await h.manager.show({ kind: 'team', url: TEAM });
    await h.manager.start(TEAM, start());
    await h.manager.show({ kind: 'team', url: TEAM }); // the same one again: nothing changes
    assert.deepEqual(
      h.runs.map((r) => r.stopped),
      [false],
    );
    await h.manager.show({ kind: 'local' });
    assert.deepEqual(
      h.runs.map((r) => r.stopped),
      [true],
    );
    assert.deepEqual(
      h.choices.get(TEAM)?.map((c) => c.on),
      [true],
      'the choice stays on',
    );
    assert.deepEqual(h.manager.list(TEAM), {
      ok: false,
      error: 'Forwarding from this computer is for the team server shown.',
    });
    await h.manager.show({ kind: 'team', url: OTHER });
    assert.equal(h.runs.length, 1, 'the other server has no forwards');
    await h.manager.show({ kind: 'team', url: TEAM });
    assert.deepEqual(
      h.runs.map((r) => [r.endpointId, r.token, r.stopped]),
      [
        ['ep_one', 'token-code1', true],
        ['ep_one', 'token-code1', false],
      ],
    );
    await h.manager.stopAll();
    assert.deepEqual(
      h.runs.map((r) => r.stopped),
      [true, true],
    );
  });
});
