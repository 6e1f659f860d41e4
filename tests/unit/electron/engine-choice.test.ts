import assert from 'node:assert/strict';
import { currentOrigin, EngineSwitch, parseTeamServerUrl, signInLinkFor } from '../../../electron/engine-choice.ts';
import { describe, test } from '../../helpers/node-test.ts';

const LOCAL = 'http://127.0.0.1:4680';
const refusal = (answer: { ok: boolean; error?: string }): string | undefined => (answer.ok ? undefined : answer.error);

describe("a team server's URL", () => {
  test('https, normalised to origin and path without a trailing slash', () => {
    assert.deepEqual(parseTeamServerUrl(' https://Hooks.Example.com/ '), {
      ok: true,
      value: 'https://hooks.example.com',
    });
    assert.deepEqual(parseTeamServerUrl('https://hooks.example.com:8443/team/'), {
      ok: true,
      value: 'https://hooks.example.com:8443/team',
    });
    assert.deepEqual(parseTeamServerUrl('https://hooks.example.com:443'), {
      ok: true,
      value: 'https://hooks.example.com',
    });
  });

  test('plain http only on loopback (a server on this computer, tests)', () => {
    for (const url of ['http://127.0.0.1:4680', 'http://localhost:9000', 'http://[::1]:4680'])
      assert.deepEqual(parseTeamServerUrl(url), { ok: true, value: url }, url);
    assert.equal(
      refusal(parseTeamServerUrl('http://hooks.example.com')),
      'The team server must be reached over https:// (plain http:// only on this computer, e.g. http://127.0.0.1).',
    );
    assert.equal(
      refusal(parseTeamServerUrl('http://10.0.0.5:4680')),
      refusal(parseTeamServerUrl('http://hooks.example.com')),
    );
  });

  test('each refusal is a sentence naming what is wrong', () => {
    assert.equal(refusal(parseTeamServerUrl('  ')), "Enter the team server's URL, e.g. https://hooks.example.com.");
    assert.equal(
      refusal(parseTeamServerUrl('hooks.example.com')),
      '"hooks.example.com" is not a URL; enter it in full, e.g. https://hooks.example.com.',
    );
    assert.equal(
      refusal(parseTeamServerUrl('ftp://hooks.example.com')),
      "The team server's URL must start with https:// (not ftp:).",
    );
    assert.equal(
      refusal(parseTeamServerUrl('file:///etc/passwd')),
      "The team server's URL must start with https:// (not file:).",
    );
    assert.equal(
      refusal(parseTeamServerUrl('https://me:secret@hooks.example.com')),
      "The team server's URL must not carry a user name or password.",
    );
    for (const url of ['https://hooks.example.com/?a=1', 'https://hooks.example.com/#/sign-in/abc'])
      assert.equal(
        refusal(parseTeamServerUrl(url)),
        "The team server's URL must not have a query (?...) or a fragment (#...).",
        url,
      );
  });
});

describe('the sign-in link for a team server', () => {
  const TEAM = 'https://hooks.example.com';

  test('the whole link printed by `hookscope open --print`, or only its code', () => {
    assert.deepEqual(signInLinkFor(TEAM, ' https://hooks.example.com/#/sign-in/Ab_c-9 '), {
      ok: true,
      value: 'https://hooks.example.com/#/sign-in/Ab_c-9',
    });
    assert.deepEqual(signInLinkFor(TEAM, 'Ab_c-9'), { ok: true, value: 'https://hooks.example.com/#/sign-in/Ab_c-9' });
    assert.deepEqual(signInLinkFor('https://hooks.example.com/team', 'https://hooks.example.com/team/#/sign-in/xyz'), {
      ok: true,
      value: 'https://hooks.example.com/team/#/sign-in/xyz',
    });
  });

  test('a link on another origin, without a code, or neither link nor code, is refused with the reason', () => {
    assert.equal(
      refusal(signInLinkFor(TEAM, 'https://evil.example.com/#/sign-in/abc')),
      'The sign-in link is not on the team server (hooks.example.com); it is on evil.example.com.',
    );
    assert.equal(
      refusal(signInLinkFor(TEAM, 'http://hooks.example.com/#/sign-in/abc')),
      'The sign-in link is not on the team server (hooks.example.com); it is on hooks.example.com.',
      'http is another origin than https',
    );
    assert.equal(
      refusal(signInLinkFor(TEAM, 'https://hooks.example.com/#/logs/log_1')),
      'The sign-in link has no sign-in code (#/sign-in/<code>).',
    );
    assert.equal(
      refusal(signInLinkFor(TEAM, 'https://hooks.example.com/#/sign-in/abc/../x')),
      'The sign-in link has no sign-in code (#/sign-in/<code>).',
    );
    assert.equal(
      refusal(signInLinkFor(TEAM, 'not a link')),
      'The sign-in link is neither a link nor a code; paste it as the server printed it.',
    );
    assert.equal(
      refusal(signInLinkFor(TEAM, '')),
      'Paste the sign-in link printed by `hookscope open --print` on the team server.',
    );
  });
});

describe('the engine switch', () => {
  test("the current origin: the local engine's, or the team server's (without its path)", () => {
    assert.equal(currentOrigin({ kind: 'local' }, LOCAL), LOCAL);
    assert.equal(
      currentOrigin({ kind: 'team', url: 'https://hooks.example.com/team' }, LOCAL),
      'https://hooks.example.com',
    );
  });

  test('follows the choice; the local origin stays loadable so "This computer" can come back', () => {
    const engine = new EngineSwitch({ kind: 'local' }, LOCAL);
    assert.deepEqual([engine.choice, engine.origin(), engine.loadableOrigins()], [{ kind: 'local' }, LOCAL, [LOCAL]]);
    engine.set({ kind: 'team', url: 'https://hooks.example.com' });
    assert.deepEqual(
      [engine.choice, engine.origin(), engine.loadableOrigins()],
      [
        { kind: 'team', url: 'https://hooks.example.com' },
        'https://hooks.example.com',
        ['https://hooks.example.com', LOCAL],
      ],
    );
    engine.set({ kind: 'local' });
    assert.deepEqual(engine.loadableOrigins(), [LOCAL]);
  });
});
