import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory holding Hookscope's package.json, found by walking up from
 * `from` (a module's import.meta.url). The same module runs from its source
 * (server/x/y.ts) and compiled (dist/server/x/y.js) at different depths, so a
 * fixed `../../` would be right in one and wrong in the other. Written by hand:
 * the walk is a few lines and runs once per process.
 */
export function appRoot(from: string): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    if (isHookscopePackage(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Hookscope's package.json was not found above ${fileURLToPath(from)}`);
    dir = parent;
  }
}

function isHookscopePackage(path: string): boolean {
  if (!existsSync(path)) return false;
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name === 'hookscope';
  } catch {
    return false;
  }
}
