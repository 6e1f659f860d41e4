/**
 * A child process that takes the data directory lock on command, so a test can
 * have several real processes race for it. Reads JSON lines on stdin:
 * `{"op":"acquire","dir":D,"at":T}` (waits until the wall clock reaches T, so
 * every contender starts together), `{"op":"release"}`; answers one JSON line each.
 */
import { createInterface } from 'node:readline';
import { acquireDataDirLock, DataDirLockedError } from '../../server/engine/data-dir-lock.ts';

type Command = { op: 'acquire'; dir: string; at: number } | { op: 'release' };

let release: (() => Promise<void>) | null = null;
const answer = (value: object): void => {
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ...value })}\n`);
};

async function run(cmd: Command): Promise<void> {
  if (cmd.op === 'release') {
    await release?.();
    release = null;
    return answer({ result: 'released' });
  }
  // Spin rather than sleep for the last stretch: timers are too coarse to line the processes up.
  while (Date.now() < cmd.at) if (cmd.at - Date.now() > 5) await new Promise((r) => setTimeout(r, 1));
  try {
    release = await acquireDataDirLock(cmd.dir);
    answer({ result: 'won' });
  } catch (e) {
    if (e instanceof DataDirLockedError) answer({ result: 'locked', holder: e.pid });
    else answer({ result: 'error', message: e instanceof Error ? e.message : String(e) });
  }
}

const lines = createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on('line', (line) => {
  queue = queue.then(() => run(JSON.parse(line) as Command));
});
answer({ result: 'ready' });
