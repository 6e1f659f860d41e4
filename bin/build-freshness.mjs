// Whether the compiled build in dist/ still matches the TypeScript sources; used
// by bin/hookscope.mjs before every command, so it must stay cheap (about 300
// stats) and load nothing but node:fs.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** True when a `.ts` file under `sourceDir` changed after `builtMs`; false when there are no sources (an installed app). */
export function sourcesNewerThan(sourceDir, builtMs) {
  if (!existsSync(sourceDir)) return false;
  for (const name of readdirSync(sourceDir, { recursive: true })) {
    if (name.endsWith('.ts') && statSync(join(sourceDir, name)).mtimeMs > builtMs) return true;
  }
  return false;
}
