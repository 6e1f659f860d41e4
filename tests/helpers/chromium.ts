import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/**
 * Debian's Chromium, never a downloaded browser: $CHROMIUM_PATH, else
 * /usr/bin/chromium, else `chromium` on the PATH. Missing, it is a failure
 * naming the fix (CI installs it in .ci/run), never a skipped test.
 */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CHROMIUM_PATH) {
    if (!existsSync(env.CHROMIUM_PATH)) throw new Error(`CHROMIUM_PATH is ${env.CHROMIUM_PATH}, which does not exist.`);
    return env.CHROMIUM_PATH;
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const found = spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  throw new Error(
    'Chromium is not installed: the e2e tests need it (apt-get install -y chromium, as .ci/run does), or set CHROMIUM_PATH.',
  );
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile and nothing that phones home. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  const profile = await mkdtemp(join(tmpdir(), 'hookscope-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      viewport: { width: 1100, height: 900 },
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    });
    return {
      context,
      close: async () => {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await rm(profile, { recursive: true, force: true });
    throw e;
  }
}
