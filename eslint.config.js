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
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
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
    files: ['server/http/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: serverPatterns.filter((p) => p !== noExpress) }],
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
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: builtinModules.map((name) => ({
            name,
            message: 'server/api-client/ runs in browsers: web APIs only.',
          })),
          patterns: [
            { group: ['node:*'], message: 'server/api-client/ runs in browsers: web APIs only.' },
            {
              group: ['../*'],
              allowTypeImports: true,
              message: 'server/api-client/ stands alone (it runs in browsers); import types only from the engine.',
            },
          ],
        },
      ],
    },
  },
);
