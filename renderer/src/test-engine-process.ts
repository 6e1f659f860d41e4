import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient, type ApiClient } from '../../server/api-client/api-client.ts';

// Joined to this file's folder: vite rewrites `new URL(path, import.meta.url)` into a served
// asset URL, which is why tests/helpers/cli-process.ts cannot find the command from a jsdom test.
const BIN = join(import.meta.dirname, '../../bin/hookscope.mjs');

export interface EngineProcess {
  apiUrl: string;
  receiverUrl: string;
  /** Signed in as the install's owner. */
  client: ApiClient;
  stop(): Promise<void>;
}

/** `hookscope <args>` as a child process; what it printed once it exits 0. */
async function hookscope(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const [code] = (await once(child, 'close')) as [number];
  if (code !== 0) throw new Error(`hookscope ${args[0]} exited ${code}`);
  return out;
}

/**
 * A real engine for a jsdom component test: `hookscope serve` on free ports in its own
 * process, on a fresh data directory. In a jsdom file's realm the engine's byte arrays
 * are not Node's (`instanceof Uint8Array` fails in the store's journal), so it cannot
 * run in-process there. Ready once runtime.json names it; `stop` ends it and removes
 * the directory.
 */
export async function startEngineProcess(): Promise<EngineProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hookscope-component-'));
  const args = ['serve', '--data-dir', dataDir, '--api-port', '0', '--receiver-port', '0', '--no-tunnel'];
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: 'ignore',
  });
  const exited = once(child, 'exit');
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 600 && child.exitCode === null; i++) {
      const info = await readFile(join(dataDir, 'runtime.json'), 'utf8').then(
        (text) => JSON.parse(text) as { pid: number; apiUrl: string; receiverUrl: string },
        () => null,
      );
      if (info !== null && info.pid === child.pid) {
        const token = (await hookscope(['token', '--data-dir', dataDir])).trim();
        return {
          apiUrl: info.apiUrl,
          receiverUrl: info.receiverUrl,
          client: createApiClient({ baseUrl: info.apiUrl, token }),
          stop,
        };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('hookscope serve did not start');
  } catch (e) {
    await stop();
    throw e;
  }
}
