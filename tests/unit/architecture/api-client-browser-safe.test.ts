import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tempDir = tempDirs('hookscope-browser-safe-');
const BUILTINS = new Set(builtinModules);
/** Node's globals, which a browser does not have. */
const NODE_GLOBALS = new Set(['Buffer', 'process', 'require', '__dirname', '__filename', 'global']);

/** Whether an import or export brings anything at run time (`import type`, or only type names, does not). */
function loadsAtRunTime(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return true;
    if (clause.isTypeOnly) return false;
    if (clause.name) return true;
    const bindings = clause.namedBindings;
    return !bindings || ts.isNamespaceImport(bindings) || bindings.elements.some((e) => !e.isTypeOnly);
  }
  if (node.isTypeOnly) return false;
  const clause = node.exportClause;
  return !clause || !ts.isNamedExports(clause) || clause.elements.some((e) => !e.isTypeOnly);
}

/** What one file loads at run time (module specifiers) and the Node globals it uses. */
function scan(file: string): { specifiers: string[]; globals: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const globals: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (loadsAtRunTime(node)) specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      specifiers.push(arg && ts.isStringLiteral(arg) ? arg.text : '<computed import()>');
    }
    if (ts.isTypeNode(node)) return;
    if (
      ts.isIdentifier(node) &&
      NODE_GLOBALS.has(node.text) &&
      !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node) &&
      !(ts.isPropertyAssignment(node.parent) && node.parent.name === node)
    ) {
      globals.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { specifiers, globals };
}

/** Every module reached at run time from `entries`, and what in them a browser cannot run. */
function reach(entries: string[]): { files: string[]; problems: string[] } {
  const seen = new Set<string>();
  const problems: string[] = [];
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const at = relative(root, file);
    const { specifiers, globals } = scan(file);
    for (const name of globals) problems.push(`${at} uses Node's ${name}`);
    for (const spec of specifiers) {
      if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec));
      else if (spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0]!)) problems.push(`${at} imports ${spec}`);
      else if (spec.startsWith('<')) problems.push(`${at} has a ${spec}`);
    }
  }
  return { files: [...seen].map((f) => relative(root, f)).sort(), problems };
}

/*
 * server/api-client runs in the browser too: the renderer bundles it. eslint.config.js
 * checks each import in the folder; this follows them, through shared.ts's
 * re-exports into the engine's pure modules, to wherever they lead.
 */
test('everything server/api-client loads at run time is browser-safe: no Node module, no Node global', () => {
  const dir = join(root, 'server/api-client');
  const entries = readdirSync(dir)
    .filter((n) => n.endsWith('.ts'))
    .map((n) => join(dir, n));
  const { files, problems } = reach(entries);
  assert.deepEqual(problems, []);
  // shared.ts did lead into the engine's modules (the walk followed its re-exports).
  assert.ok(files.includes('server/support/bidi-controls.ts'), files.join('\n'));
  assert.ok(files.includes('server/replay/replay-limits.ts'), files.join('\n'));
});

test('the walk finds a Node import or global behind a re-export, and skips type-only imports', async () => {
  const dir = await tempDir();
  const files: Record<string, string> = {
    'entry.ts': [
      "export { decoded } from './helper.ts';",
      "import type { Big } from './types-only.ts';",
      "import { type Other } from './types-only.ts';",
      'export type { Big, Other };',
      "export type { Third } from './types-only.ts';",
      "export { type Fourth } from './types-only.ts';",
    ].join('\n'),
    'helper.ts': "import { isUtf8 } from 'node:buffer';\nexport const decoded = isUtf8(Buffer.from('a'));",
    'types-only.ts':
      "import 'node:fs';\nexport interface Big {}\nexport interface Other {}\nexport type Third = 3;\nexport type Fourth = 4;",
  };
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const at = relative(root, dir);
  const { files: reached, problems } = reach([join(dir, 'entry.ts')]);
  assert.deepEqual(reached, [`${at}/entry.ts`, `${at}/helper.ts`]);
  assert.deepEqual(problems, [`${at}/helper.ts uses Node's Buffer`, `${at}/helper.ts imports node:buffer`]);
});
