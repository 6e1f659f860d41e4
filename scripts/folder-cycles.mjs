#!/usr/bin/env node
// Folder-level import cycles under server/: each top-level folder (a feature or a
// piece of infrastructure) is one node, an import from a file in one folder of a
// file in another is an edge (type-only imports count: they tie the folders just
// as well). Prints every strongly connected group of folders and the imports that
// make each edge, and exits 1 when there is one. File-level tools (madge) report
// file cycles only; two folders can import each other without any file cycle.
//
//   node scripts/folder-cycles.mjs [root=server]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(process.argv[2] ?? 'server');

function* tsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

const folderOf = (file) => relative(root, file).split(sep)[0];
// Static imports and re-exports (`from '...'`, multi-line included) and dynamic `import('...')`.
const SPECIFIER = /\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

/** edges.get(a).get(b) = the importing file -> imported file pairs behind a -> b. */
const edges = new Map();
for (const file of tsFiles(root)) {
  const from = folderOf(file);
  if (!from.length || from.endsWith('.ts')) continue;
  for (const m of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    if (!target.startsWith(root + sep)) continue;
    const to = folderOf(target);
    if (to === from || to.endsWith('.ts')) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const byTarget = edges.get(from);
    if (!byTarget.has(to)) byTarget.set(to, []);
    byTarget.get(to).push(`${relative(root, file)} -> ${relative(root, target)}`);
  }
}

// Tarjan's strongly connected components.
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const groups = [];
let next = 0;
function visit(v) {
  index.set(v, next);
  low.set(v, next);
  next++;
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const group = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  }
}
for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);

if (groups.length === 0) {
  console.log(`No folder-level import cycles under ${relative(process.cwd(), root) || '.'}.`);
  process.exit(0);
}
for (const group of groups) {
  console.log(`Cycle among: ${group.join(', ')}`);
  for (const a of group) {
    for (const b of group) {
      for (const why of edges.get(a)?.get(b) ?? []) console.log(`  ${a} -> ${b}: ${why}`);
    }
  }
}
process.exit(1);
