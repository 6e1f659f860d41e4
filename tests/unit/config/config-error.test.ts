import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';
import { validateAccountName } from '../../../server/auth/account-id.ts';
import { main } from '../../../server/cli/main.ts';
import { loadConfigFile, resolveConfig } from '../../../server/config/config.ts';
import { parseDuration } from '../../../server/config/durations.ts';
import { AppError } from '../../../server/errors/app-errors.ts';
import { ConfigError } from '../../../server/errors/config-error.ts';

const tempDir = tempDirs('hookscope-config-error-');

/** Runs `fn`, expecting a ConfigError (never an HTTP error), and returns it. */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ConfigError, `expected a ConfigError, got ${String(e)}`);
    assert.ok(!(e instanceof AppError));
    return e;
  }
  assert.fail('nothing was thrown');
}

describe('ConfigError: start-up settings, not an HTTP error', () => {
  test('an environment variable, named as the source', () => {
    const e = configError(() => resolveConfig({ dataDir: '/d', env: { HOOKSCOPE_SYNC: 'sometimes' } }));
    assert.equal(e.message, 'HOOKSCOPE_SYNC: must be interval or strict (got "sometimes").');
    assert.equal(e.source, 'HOOKSCOPE_SYNC');
    assert.equal(e.name, 'ConfigError');
  });

  test('a flag', () => {
    const e = configError(() => resolveConfig({ dataDir: '/d', flags: { subdomain: 'Not_Valid' } }));
    assert.equal(e.message, '--subdomain must be 4-63 lowercase letters and digits (got "Not_Valid").');
    assert.equal(e.source, '--subdomain');
  });

  test('config.json, with the schema issues', () => {
    const e = configError(() => resolveConfig({ dataDir: '/d', file: { apiPort: 'x' } }));
    assert.equal(e.message, 'config.json: apiPort: Invalid input: expected number, received string');
    assert.equal(e.source, 'config.json');
    assert.equal(e.issues?.length, 1);
  });

  test('an LLM URL without a model', () => {
    const e = configError(() => resolveConfig({ dataDir: '/d', env: { HOOKSCOPE_LLM_URL: 'http://127.0.0.1:1' } }));
    assert.equal(e.source, 'HOOKSCOPE_LLM_MODEL');
  });

  test('a duration and an account name', () => {
    assert.equal(configError(() => parseDuration('soon', '--ttl')).source, '--ttl');
    const e = configError(() => validateAccountName('no spaces'));
    assert.equal(e.message, '--user must be 1 to 64 letters, digits or . _ @ - (got "no spaces").');
    assert.equal(e.source, '--user');
  });

  test('a config.json that is not JSON', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'config.json'), '{ nope');
    await assert.rejects(loadConfigFile(dir), (e: unknown) => e instanceof ConfigError && e.source === 'config.json');
  });

  test('the CLI prints it on one line as a usage error (exit 2)', async () => {
    const dir = await tempDir();
    const run = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l), env });
      return { code, out, err };
    };
    assert.deepEqual(await run(['token', '--data-dir', dir], { HOOKSCOPE_SYNC: 'sometimes' }), {
      code: 2,
      out: [],
      err: ['hookscope: HOOKSCOPE_SYNC: must be interval or strict (got "sometimes").'],
    });
    assert.deepEqual(await run(['token', '--data-dir', dir, '--ttl', 'soon']), {
      code: 2,
      out: [],
      err: [
        'hookscope: duration must be a positive duration such as 10s, 15m, 12h or 30d, at most 10 years (got "soon").',
      ],
    });
  });
});
