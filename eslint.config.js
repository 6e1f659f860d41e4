// Flat config: typescript-eslint's type-aware rules catch floating promises,
// which matter in an engine where an unhandled rejection would lose a write.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Import rules that keep server/ layered (see the Boundaries block below).
const noExpress = {
  group: ['express', 'express/*'],
  message: 'Express belongs to server/http: routes declare a RouteSpec, handlers get a HandlerContext.',
};
const noForeignRepository = {
  regex: String.raw`^\.\./.*-repository(\.ts)?$`,
  message: "A repository is used only by its own feature's service (and wired in server/engine).",
};
const noStoreInternals = {
  regex: String.raw`/store/(?!store-types\.ts$)[^/]+$`,
  message: 'Only server/store/store-types.ts is public; the journal, worker and sql.js are store internals.',
};
const noShellOrUi = {
  regex: String.raw`^electron(/.*)?$|(^|/)renderer/`,
  message: 'The engine (server/) never imports the Electron shell or the renderer.',
};
const serverPatterns = [noExpress, noForeignRepository, noStoreInternals, noShellOrUi];
// The composition root wires repositories and opens the store; the other rules still hold.
const composition = [noExpress, noShellOrUi];

// Front ends (the renderer, the CLI's API commands) reach the engine through server/api-client only:
// the typed client, the OpenAPI document's generated types, and shared.ts (pure helpers, re-exported).
const FRONT_END =
  'Front ends import only server/api-client from server/: the typed client, the generated OpenAPI types ' +
  '(enums included), and pure helpers re-exported by server/api-client/shared.ts (add one there).';
const rendererImports = (alsoAllowed = '') => ({
  regex: String.raw`(^|/)server/(?!api-client/${alsoAllowed})`,
  message: FRONT_END,
});
/**
 * What the CLI may import from server/ besides server/api-client, each with its reason. The
 * CLI runs on the engine's machine under Node, so Node-only engine code it must share
 * cannot go through server/api-client, which also runs in browsers.
 */
const CLI_MAY_IMPORT = [
  // Header values and bodies of API answers decoded as the engine decodes them (Buffer, node:buffer).
  'support/header-text.ts',
  'export/request-parts.ts',
  // Account names and validation types (with their aliases) checked before any request, by the engine's
  // own rules, so a bad flag is a usage error (exit 2); these modules load node:crypto.
  'auth/account-id.ts',
  'endpoints/validation-types.ts',
  // Where `hookscope login` keeps tokens: the data directory found, and its private files written, as the engine does.
  'config/data-dir.ts',
  'support/private-files.ts',
  'support/read-if-exists.ts',
  // `hookscope listen` sends from the laptop what the engine built, exactly as the engine sends (node:http),
  // and reads --since as the engine reads durations.
  'replay/http-sender.ts',
  'config/durations.ts',
];
const WEB_ONLY = 'server/api-client/ runs in browsers: web APIs only.';
/**
 * The engine modules server/api-client/shared.ts re-exports to the front ends: pure ones only (no
 * `node:` import, no I/O), which tests/unit/architecture/api-client-browser-safe.test.ts checks import by import.
 */
const SHARED_WITH_FRONT_ENDS = [
  'support/bidi-controls.ts',
  'support/control-chars.ts',
  'support/json-shape.ts',
  'support/shell-quote.ts',
  'support/absolute-url.ts',
  'support/api-version.ts',
  'replay/replay-limits.ts',
  'logs/log-status.ts',
  'logs/log-types.ts',
  'export/export-types.ts',
];
const escapeDots = (paths) => paths.join('|').replaceAll('.', String.raw`\.`);
const apiClientImports = (shared) => ({
  paths: builtinModules.map((name) => ({ name, message: WEB_ONLY })),
  patterns: [
    { group: ['node:*'], message: WEB_ONLY },
    {
      regex: shared.length === 0 ? String.raw`^\.\./` : String.raw`^\.\./(?!(${escapeDots(shared)})$)`,
      allowTypeImports: true,
      message:
        'server/api-client/ stands alone (it runs in browsers); import types only from the engine, ' +
        'or re-export a pure module through shared.ts (SHARED_WITH_FRONT_ENDS in eslint.config.js).',
    },
  ],
});
const cliLeaves = (depth) => ({
  regex: String.raw`^(\.\./){${depth}}(?!api-client/|(${escapeDots(CLI_MAY_IMPORT)})$)`,
  message: `${FRONT_END} The CLI's other exceptions are listed in eslint.config.js (CLI_MAY_IMPORT, CLI_ENGINE_SIDE).`,
});
// The commands that start the engine in this process (serve, start), mint tokens with its signing key
// (token, and the local connection every API command opens), and the program that maps their errors
// to exit codes: they are the engine's side of the CLI and may import any of server/.
const CLI_ENGINE_SIDE = [
  'server/cli/main.ts',
  'server/cli/engine-connection.ts',
  'server/cli/mint-token.ts',
  'server/cli/commands/serve-run.ts',
  'server/cli/commands/start.ts',
  'server/cli/commands/token.ts',
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.scratch/**',
      '.tmp/**',
      'release/**',
      '**/dist/**',
      'coverage/**',
      'bin/**',
      'scripts/**',
      '**/*.mjs',
      'eslint.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's describe/test return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'suite', 'test', 'it', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      // ignoreRestSiblings: `const { a, b, ...rest } = x` is how an object is copied without some fields.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/require-await': 'off',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  // Boundaries (docs/ARCHITECTURE.md): each feature reaches another only through its
  // service or its declared types; Express stays in the http layer; the store's
  // internals stay in the store; the engine never depends on the desktop shell or the UI.
  {
    files: ['server/**/*.ts'],
    ignores: ['server/engine/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: serverPatterns }] },
  },
  {
    files: ['server/engine/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: composition }] },
  },
  {
    // The storage backends implement each feature's repository interface (server/<feature>/<feature>-repository.ts).
    files: ['server/storage/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: serverPatterns.filter((p) => p !== noForeignRepository) }],
    },
  },
  {
    // The sql.js backend is the one place outside the engine that opens the store (its repositories use Store only).
    files: ['server/storage/sqljs/sqljs-backend.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: serverPatterns.filter((p) => p !== noForeignRepository && p !== noStoreInternals) },
      ],
    },
  },
  {
    files: ['server/http/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: serverPatterns.filter((p) => p !== noExpress) }],
    },
  },
  {
    files: ['server/cli/*.ts'],
    ignores: CLI_ENGINE_SIDE,
    rules: { 'no-restricted-imports': ['error', { patterns: [...serverPatterns, cliLeaves(1)] }] },
  },
  {
    files: ['server/cli/*/*.ts'],
    ignores: CLI_ENGINE_SIDE,
    rules: { 'no-restricted-imports': ['error', { patterns: [...serverPatterns, cliLeaves(2)] }] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [rendererImports()] }] },
  },
  {
    // Component and store tests start a real engine in-process (tests/helpers/test-engine.ts, or
    // renderer/src/test-engine.ts where a jsdom file cannot load node:test).
    files: ['renderer/**/*.test.{ts,tsx}', 'renderer/src/test-engine.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [rendererImports(String.raw`|engine/engine\.ts$|config/config\.ts$`)] },
      ],
    },
  },
  {
    files: ['tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Response bodies in tests are parsed JSON whose shape the assertions check.
      '@typescript-eslint/no-explicit-any': 'off',
      'no-console': 'off',
      // Tests take `test` from tests/helpers/node-test.ts, which gives each one its own time limit.
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'node:test', message: 'Import from tests/helpers/node-test.ts (per-test time limits).' }] },
      ],
    },
  },
  { files: ['tests/helpers/node-test.ts'], rules: { 'no-restricted-imports': 'off' } },
  {
    // The Electron shell: only main.ts uses Electron at run time. Every other
    // file takes its types only, so tests import them under plain Node (loading the electron
    // package would start a download of its binary).
    files: ['electron/**/*.ts'],
    ignores: ['electron/main.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              allowTypeImports: true,
              message: 'Only electron/main.ts loads Electron; take its types here.',
            },
          ],
        },
      ],
    },
  },
  {
    // The shared API client runs in the browser too (the renderer): web APIs only, and
    // nothing from the engine's own modules at run time (types are erased, so they may be imported).
    files: ['server/api-client/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', apiClientImports([])] },
  },
  {
    // Its one exception: the pure engine modules it shares with the front ends.
    files: ['server/api-client/shared.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', apiClientImports(SHARED_WITH_FRONT_ENDS)] },
  },
);
