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

/** The two import rules the boundaries use: ESLint's, and typescript-eslint's where type imports are allowed. */
const IMPORT_RULES = ['no-restricted-imports', '@typescript-eslint/no-restricted-imports'] as const;

async function violations(file: string, importLine: string): Promise<string[]> {
  const config = (await eslint.calculateConfigForFile(file)) as Linter.Config;
  const rules = Object.fromEntries(
    IMPORT_RULES.flatMap((name) => (config.rules?.[name] ? [[name, config.rules[name]]] : [])),
  );
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    `${importLine}\n`,
    {
      files: ['**/*.ts', '**/*.tsx'],
      languageOptions: { parser: tseslint.parser },
      plugins: { '@typescript-eslint': tseslint.plugin },
      rules,
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
    // The storage backends implement the features' repository interfaces; store internals stay closed to them.
    const fromBackend = "import type { EndpointsRepository } from '../../endpoints/endpoints-repository.ts';";
    assert.deepEqual(await violations('server/storage/postgres/probe.ts', fromBackend), []);
    assert.equal(
      (await violations('server/storage/sqljs/probe.ts', "import { Journal } from '../../store/journal.ts';")).length,
      1,
    );
    // Only the sql.js backend's composition opens the store itself.
    const openStore = "import { SqljsStore } from '../../store/sqljs-store.ts';";
    assert.deepEqual(await violations('server/storage/sqljs/sqljs-backend.ts', openStore), []);
    assert.equal((await violations('server/storage/sqljs/logs-sqljs.ts', openStore)).length, 1);
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

  test('the renderer imports only server/api-client from server/ (types too); its tests may start an engine', async () => {
    const rejected: [string, string][] = [
      ['renderer/src/lib/probe.ts', "import { markBidiControls } from '../../../server/support/bidi-controls.ts';"],
      ['renderer/src/lib/probe.ts', "import type { LogStatus } from '../../../server/logs/log-status.ts';"],
      [
        'renderer/src/components/detail/probe.tsx',
        "import { replayFailed } from '../../../../server/replay/replay-types.ts';",
      ],
      ['renderer/src/stores/probe.test.ts', "import { jsonShape } from '../../../server/support/json-shape.ts';"],
    ];
    for (const [file, line] of rejected) {
      const found = await violations(file, line);
      assert.equal(found.length, 1, `${file}: ${line}`);
      assert.match(found[0]!, /Front ends import only server\/api-client from server\//);
    }
    const allowed: [string, string][] = [
      ['renderer/src/lib/probe.ts', "import { jsonShape } from '../../../server/api-client/shared.ts';"],
      [
        'renderer/src/components/detail/probe.tsx',
        "import type { paths } from '../../../../server/api-client/api-paths.generated.ts';",
      ],
      ['renderer/src/stores/probe.ts', "import { createStore } from 'zustand/vanilla';"],
      ['renderer/src/stores/probe.test.ts', "import { startEngine } from '../../../server/engine/engine.ts';"],
      ['renderer/src/stores/probe.test.ts', "import { DEFAULT_CONFIG } from '../../../server/config/config.ts';"],
    ];
    for (const [file, line] of allowed) assert.deepEqual(await violations(file, line), [], `${file}: ${line}`);
  });

  test('the CLI imports server/api-client and its own files; the engine side and a few Node-only helpers are listed', async () => {
    const rejected: [string, string][] = [
      ['server/cli/probe.ts', "import { LOG_STATUSES } from '../logs/log-status.ts';"],
      ['server/cli/probe.ts', "import { BIDI_CONTROLS } from '../support/bidi-controls.ts';"],
      ['server/cli/commands/probe.ts', "import { EXPORT_FORMATS } from '../../export/export-types.ts';"],
      [
        'server/cli/commands/probe.ts',
        "import { headerText } from '../../support/header-text.ts/../../engine/engine.ts';",
      ],
      ['server/cli/commands/probe.ts', "import { startEngine } from '../../engine/engine.ts';"],
    ];
    for (const [file, line] of rejected) assert.equal((await violations(file, line)).length, 1, `${file}: ${line}`);
    const allowed: [string, string][] = [
      ['server/cli/probe.ts', "import { BIDI_CONTROLS } from '../api-client/shared.ts';"],
      ['server/cli/probe.ts', "import { EXIT } from './cli-output.ts';"],
      ['server/cli/commands/probe.ts', "import { colorsFor } from '../render.ts';"],
      ['server/cli/commands/probe.ts', "import { headerText } from '../../support/header-text.ts';"],
      ['server/cli/commands/probe.ts', "import { parseValidationType } from '../../endpoints/validation-types.ts';"],
      // The engine side: starting it in-process, minting tokens, mapping its errors to exit codes.
      ['server/cli/commands/serve-run.ts', "import { startEngine } from '../../engine/engine.ts';"],
      ['server/cli/main.ts', "import { ListenError } from '../http/listen-error.ts';"],
    ];
    for (const [file, line] of allowed) assert.deepEqual(await violations(file, line), [], `${file}: ${line}`);
    // The server-wide rules still hold in the CLI.
    assert.equal((await violations('server/cli/commands/probe.ts', "import type { R } from 'express';")).length, 1);
  });

  test('server/api-client imports engine types only; shared.ts re-exports the listed pure modules', async () => {
    const engineValue = "export { jsonShape } from '../support/json-shape.ts';";
    assert.equal((await violations('server/api-client/probe.ts', engineValue)).length, 1);
    assert.deepEqual(await violations('server/api-client/shared.ts', engineValue), []);
    assert.deepEqual(
      await violations('server/api-client/probe.ts', "import type { X } from '../logs/log-types.ts';"),
      [],
    );
    for (const line of [
      "export { headerText } from '../support/header-text.ts';",
      "export { isUtf8 } from 'node:buffer';",
      "export { randomBytes } from 'crypto';",
    ]) {
      assert.equal((await violations('server/api-client/shared.ts', line)).length, 1, line);
    }
  });
});
