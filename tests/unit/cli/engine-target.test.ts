import assert from 'node:assert/strict';
import { UsageError } from '../../../server/cli/cli-output.ts';
import { normaliseEngineUrl, resolveEngineTarget } from '../../../server/cli/engine-target.ts';
import { signInCodeFrom } from '../../../server/cli/sign-in-code-input.ts';
import { describe, test } from '../../helpers/node-test.ts';

const CODE = 'Zq3v_9-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

describe('normaliseEngineUrl: one key per engine', () => {
  test('origin and path, without a trailing slash, query, fragment or credentials; default ports dropped', () => {
    for (const [given, key] of [
      ['https://hooks.example.com', 'https://hooks.example.com'],
      ['https://hooks.example.com/', 'https://hooks.example.com'],
      ['HTTPS://Hooks.Example.com:443/', 'https://hooks.example.com'],
      ['http://127.0.0.1:4680//', 'http://127.0.0.1:4680'],
      ['https://example.com/hookscope/', 'https://example.com/hookscope'],
      ['https://user:pw@example.com/hookscope?x=1#frag', 'https://example.com/hookscope'],
    ]) {
      assert.equal(normaliseEngineUrl(given!, '--engine'), key, given);
    }
  });

  test('not http(s), or not a URL: a usage error naming where it came from', () => {
    for (const value of ['ftp://example.com', 'example.com', '', 'http://', 'file:///etc/passwd']) {
      assert.throws(() => normaliseEngineUrl(value, 'HOOKSCOPE_ENGINE_URL'), {
        constructor: UsageError,
        message: `HOOKSCOPE_ENGINE_URL must be an absolute http:// or https:// URL such as https://hooks.example.com; got "${value}".`,
      });
    }
  });
});

describe('resolveEngineTarget: flag > environment > stored login > data-dir discovery', () => {
  const env = { HOOKSCOPE_ENGINE_URL: 'https://env.example.com/', HOOKSCOPE_TOKEN: 'env-token' };

  test('nothing given: the local engine, token minted', () => {
    assert.deepEqual(resolveEngineTarget({ env: {} }), { kind: 'local', token: undefined });
    assert.deepEqual(resolveEngineTarget({ env: { HOOKSCOPE_ENGINE_URL: '', HOOKSCOPE_TOKEN: '' } }), {
      kind: 'local',
      token: undefined,
    });
  });

  test('the environment names the engine and its token; the flags win over it', () => {
    assert.deepEqual(resolveEngineTarget({ env }), {
      kind: 'remote',
      url: 'https://env.example.com',
      token: 'env-token',
    });
    assert.deepEqual(resolveEngineTarget({ env, engine: 'https://flag.example.com', token: 'flag-token' }), {
      kind: 'remote',
      url: 'https://flag.example.com',
      token: 'flag-token',
    });
    assert.deepEqual(
      resolveEngineTarget({ env: { HOOKSCOPE_TOKEN: 'env-token' }, engine: 'https://flag.example.com' }),
      {
        kind: 'remote',
        url: 'https://flag.example.com',
        token: 'env-token',
      },
    );
  });

  test('an engine without a token: undefined, for the stored login to fill', () => {
    assert.deepEqual(resolveEngineTarget({ env: {}, engine: 'https://flag.example.com' }), {
      kind: 'remote',
      url: 'https://flag.example.com',
      token: undefined,
    });
  });

  test('a token without an engine goes to the local engine instead of a minted one', () => {
    assert.deepEqual(resolveEngineTarget({ env: {}, token: 't' }), { kind: 'local', token: 't' });
  });

  test('--user with an engine or a token is refused, naming which; alone it is the local engine', () => {
    assert.throws(() => resolveEngineTarget({ env: {}, engine: 'https://h.example.com', user: 'bob' }), {
      constructor: UsageError,
      message: /^--user cannot be used with --engine: the token names the account\./,
    });
    assert.throws(() => resolveEngineTarget({ env: { HOOKSCOPE_ENGINE_URL: 'https://h.example.com' }, user: 'bob' }), {
      message: /^--user cannot be used with HOOKSCOPE_ENGINE_URL:/,
    });
    assert.throws(() => resolveEngineTarget({ env: {}, token: 't', user: 'bob' }), {
      message: /^--user cannot be used with --token:/,
    });
    assert.deepEqual(resolveEngineTarget({ env: {}, user: 'bob' }), { kind: 'local', token: undefined });
  });

  test('an empty --token is a usage error', () => {
    assert.throws(() => resolveEngineTarget({ env: {}, engine: 'https://h.example.com', token: ' ' }), {
      constructor: UsageError,
      message: '--token is empty; it takes an API token (a JWT).',
    });
  });
});

describe('signInCodeFrom: the pasted link or code', () => {
  test('the whole link, the code alone, with surrounding blanks', () => {
    assert.equal(signInCodeFrom(`https://hooks.example.com/#/sign-in/${CODE}`), CODE);
    assert.equal(signInCodeFrom(`  http://127.0.0.1:4680/#/sign-in/${CODE}\n`), CODE);
    assert.equal(signInCodeFrom(CODE), CODE);
    assert.equal(signInCodeFrom(` ${CODE} `), CODE);
  });

  test('a link without a code, or text that is no code: a usage error', () => {
    for (const text of [
      'https://hooks.example.com/',
      'https://hooks.example.com/#/sign-in/',
      'https://hooks.example.com/#/sign-in/abc',
      'https://hooks.example.com/#/sign-in/has%20space%20in%20the%20middle%20of%20it',
      `https://h.example.com/#/other/${CODE}`,
    ]) {
      assert.throws(
        () => signInCodeFrom(text),
        { constructor: UsageError, message: /^That link carries no sign-in code/ },
        text,
      );
    }
    for (const text of ['', 'short', 'not a code at all, with spaces', `${CODE}!`]) {
      assert.throws(
        () => signInCodeFrom(text),
        { constructor: UsageError, message: /^That is neither a sign-in link nor a sign-in code/ },
        text,
      );
    }
  });
});
