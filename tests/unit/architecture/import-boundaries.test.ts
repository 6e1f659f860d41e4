import assert from 'node:assert/strict';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, test } from '../../helpers/node-test.ts';

/**
 * The boundary rules of eslint.config.js, applied to probe imports: the rule
 * configuration ESLint computes for a file at that place is run on a line of
 * source, so a rule that stops matching (a typo in a pattern, a block that no
 * longer covers a folder) fails here instead of silently allowing the import.
 */
const eslint = new ESLint();

async function violations(file: string, importLine: string): Promise<string[]> {
  const config = (await eslint.calculateConfigForFile(file)) as Linter.Config;
  const rule = config.rules?.['no-restricted-imports'];
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    `${importLine}\n`,
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      rules: rule === undefined ? {} : { 'no-restricted-imports': rule },
    },
    file,
  );
  return messages.map((m) => m.message);
}

describe('import boundaries (eslint.config.js)', () => {
  test('Express only in server/http', async () => {
    assert.equal((await violations('server/logs/probe.ts', "import type { Request } from 'express';")).length, 1);
    assert.deepEqual(await violations('server/http/probe.ts', "import type { Request } from 'express';"), []);
  });

  test('a repository only in its own feature and the composition root', async () => {
    const foreign = "import type { EndpointsRepository } from '../endpoints/endpoints-repository.ts';";
    assert.equal((await violations('server/logs/probe.ts', foreign)).length, 1);
    assert.equal(
      (await violations('server/remediation/rules/probe.ts', `import type { X } from '../../logs/logs-repository.ts';`))
        .length,
      1,
    );
    assert.deepEqual(
      await violations('server/logs/probe.ts', "import type { LogsRepository } from './logs-repository.ts';"),
      [],
    );
    assert.deepEqual(await violations('server/engine/probe.ts', foreign), []);
  });

  test('store internals only in the store (its types are public)', async () => {
    assert.equal(
      (await violations('server/logs/probe.ts', "import { Journal } from '../store/journal.ts';")).length,
      1,
    );
    assert.deepEqual(
      await violations('server/logs/probe.ts', "import type { Store } from '../store/store-types.ts';"),
      [],
    );
    assert.deepEqual(await violations('server/store/probe.ts', "import { Journal } from './journal.ts';"), []);
  });

  test('nothing in server/ imports electron or the renderer', async () => {
    for (const file of ['server/logs/probe.ts', 'server/http/probe.ts', 'server/engine/probe.ts']) {
      assert.equal((await violations(file, "import { app } from 'electron';")).length, 1, file);
      assert.equal((await violations(file, "import { x } from '../../renderer/src/x.ts';")).length, 1, file);
    }
  });
});
