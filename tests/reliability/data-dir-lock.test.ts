import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '../helpers/temp-dir.ts';

const CONTENDER = fileURLToPath(new URL('../helpers/lock-contender.ts', import.meta.url));
const ROUNDS = 20;

interface Answer {
  pid: number;
  result: 'ready' | 'won' | 'locked' | 'released' | 'error';
  holder?: number;
  message?: string;
}

/** One long-lived child process that races for the lock when told to. */
class Contender {
  private readonly answers: Answer[] = [];
  private waiting: ((a: Answer) => void) | null = null;
  readonly child: ChildProcess;
  readonly exited: Promise<void>;

  constructor() {
    this.child = spawn(process.execPath, ['--import', 'tsx', CONTENDER], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.exited = new Promise((r) => this.child.once('exit', () => r()));
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const a = JSON.parse(line) as Answer;
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = null;
        w(a);
      } else this.answers.push(a);
    });
  }

  next(): Promise<Answer> {
    const queued = this.answers.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  send(cmd: object): Promise<Answer> {
    this.child.stdin!.write(`${JSON.stringify(cmd)}\n`);
    return this.next();
  }
}

/** The pid of a process that has exited: what a crashed engine leaves in its lock. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

const scenarios: { name: string; lock: (pid: number) => string | null }[] = [
  { name: 'no lock', lock: () => null },
  { name: 'a stale lock of a dead pid', lock: (pid) => `${pid} 0a1b2c3d4e5f\n` },
  { name: 'a stale lock in the old pid-only format', lock: (pid) => `${pid}` },
];

describe('data directory lock under simultaneous starts', () => {
  const contenders: Contender[] = [];
  before(async () => {
    for (let i = 0; i < 8; i++) contenders.push(new Contender());
    for (const c of contenders) assert.equal((await c.next()).result, 'ready');
  });
  after(async () => {
    for (const c of contenders) c.child.stdin!.end();
    await Promise.all(contenders.map((c) => c.exited));
  });

  for (const scenario of scenarios) {
    for (const n of [2, 8]) {
      test(`${n} processes starting together on ${scenario.name}: exactly one wins, the others are refused naming it (${ROUNDS} rounds)`, async () => {
        const stale = await deadPid();
        for (let round = 0; round < ROUNDS; round++) {
          const dir = await makeTempDir('hookscope-lock-race-');
          try {
            const content = scenario.lock(stale);
            if (content !== null) await writeFile(join(dir, 'engine.lock'), content);
            const at = Date.now() + 30;
            const answers = await Promise.all(contenders.slice(0, n).map((c) => c.send({ op: 'acquire', dir, at })));
            const summary = JSON.stringify(answers);
            const winners = answers.filter((a) => a.result === 'won');
            assert.equal(winners.length, 1, `round ${round}: ${summary}`);
            const losers = answers.filter((a) => a.result !== 'won');
            assert.deepEqual(
              losers.map((a) => [a.result, a.holder]),
              losers.map(() => ['locked', winners[0]!.pid]),
              `round ${round}: ${summary}`,
            );
            for (const c of contenders.slice(0, n)) assert.equal((await c.send({ op: 'release' })).result, 'released');
            // Nothing is left behind: no temp files, no claims, no lock.
            assert.deepEqual(await readdir(dir), [], `round ${round}`);
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        }
      });
    }
  }
});
