// `npm run dev`: the renderer from Vite's dev server (hot reload), against an
// engine that restarts when its code changes.
//
// - Vite serves renderer/ on http://127.0.0.1:5173 (or the next free port) and
//   proxies /api (the API and its event stream) to the engine, so the page, the
//   API and the session cookie share Vite's origin as they share the engine's in
//   a build.
// - Where Electron can start (as `npm start` decides: binary, display, built
//   shell), `tsc --watch` recompiles server/ and electron/ into dist/ and the
//   desktop app is restarted after each clean compile; its window loads Vite's
//   URL (HOOKSCOPE_RENDERER_URL, honoured only by an unpackaged app).
// - Elsewhere, `hookscope serve` runs from the TypeScript sources under
//   `tsx watch`, which restarts it on each change, and this prints a sign-in link
//   at Vite's address.
//
// The data lives in .hookscope-data/ in the checkout (HOOKSCOPE_DATA_DIR to change
// it), the API on port 4680 (HOOKSCOPE_API_PORT), the receiver on the next port.
// Ctrl+C stops everything.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'vite';
import { signInPage } from '../electron/app-origin.ts';
import { probeElectron, startPlan } from '../server/cli/commands/start.ts';

const root = new URL('..', import.meta.url).pathname;
const dataDir = process.env.HOOKSCOPE_DATA_DIR ?? join(root, '.hookscope-data');
const apiPort = Number(process.env.HOOKSCOPE_API_PORT ?? 4680);
const apiUrl = `http://127.0.0.1:${apiPort}`;
const engineEnv = {
  ...process.env,
  HOOKSCOPE_DATA_DIR: dataDir,
  HOOKSCOPE_API_PORT: String(apiPort),
  HOOKSCOPE_RECEIVER_PORT: String(apiPort + 1),
};

const vite = await createServer({
  configFile: join(root, 'renderer/vite.config.ts'),
  server: { host: '127.0.0.1', port: 5173, proxy: { '/api': { target: apiUrl, changeOrigin: true } } },
});
await vite.listen();
const rendererUrl = vite.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/';
const rendererOrigin = new URL(rendererUrl).origin;
console.error(`dev: renderer at ${rendererUrl} (hot reload), API proxied to ${apiUrl}, data in ${dataDir}`);

const children = new Set<ChildProcess>();
const run = (command: string, args: string[], env: NodeJS.ProcessEnv, stdout: 'inherit' | 'pipe' = 'inherit') => {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', stdout, 'inherit'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
};
const stopAll = async (): Promise<void> => {
  for (const child of children) child.kill('SIGTERM');
  await vite.close();
  process.exit(0);
};
process.on('SIGINT', () => void stopAll());
process.on('SIGTERM', () => void stopAll());

const plan = startPlan({
  ...probeElectron(process.env),
  env: process.env,
  platform: process.platform,
  root: process.getuid?.() === 0,
});

if (plan.kind === 'electron') {
  // The desktop app, restarted after each clean compile of server/ and electron/.
  let app: ChildProcess | null = null;
  const restart = (): void => {
    const previous = app;
    const launch = (): void => {
      app = run(plan.binary, [root], { ...engineEnv, HOOKSCOPE_RENDERER_URL: rendererUrl });
    };
    if (previous && previous.exitCode === null) {
      previous.once('exit', launch);
      previous.kill('SIGTERM');
    } else {
      launch();
    }
  };
  const tsc = run(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'],
    process.env,
    'pipe',
  );
  tsc.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    process.stderr.write(text);
    if (/Found 0 errors\./.test(text)) restart();
  });
} else {
  console.error(`dev: Electron cannot start (${plan.reason}); the engine runs headless: open the link below.`);
  run(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'watch', '--clear-screen=false', 'bin/hookscope.mjs', 'serve'],
    { ...engineEnv, HOOKSCOPE_FROM_SOURCE: '1' },
  );
  const link = await signInLinkWhenUp();
  console.error(`dev: sign in at ${signInPage(link, rendererOrigin)}`);
}

/** Waits for the engine's runtime.json, then mints a one-time sign-in link with `hookscope open --print`. */
async function signInLinkWhenUp(): Promise<string> {
  for (;;) {
    try {
      const info = JSON.parse(await readFile(join(dataDir, 'runtime.json'), 'utf8')) as { apiUrl?: string };
      if (info.apiUrl === apiUrl) break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const open = run(process.execPath, ['bin/hookscope.mjs', 'open', '--print'], engineEnv, 'pipe');
  let out = '';
  open.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise((r) => open.on('exit', r));
  return out.trim();
}
