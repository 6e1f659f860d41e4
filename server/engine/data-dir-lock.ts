import { randomBytes } from 'node:crypto';
import { link, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFile } from '../support/private-files.ts';
import { readTextIfExists } from '../support/read-if-exists.ts';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Another Hookscope engine (pid ${pid}) is already using ${dataDir}; stop it first or choose another --data-dir.`,
    );
    this.name = 'DataDirLockedError';
  }
}

const LOCK_FILE = 'engine.lock';
/** Rounds of "someone else moved first, look again"; each one means another contender progressed. */
const MAX_ATTEMPTS = 50;
/** Claims only pile up when a contender dies between claiming and renaming; this bounds a walk. */
const MAX_CHAIN = 64;

/** A lock file's content: the holder's pid and a generation unique to this acquisition. */
interface LockRecord {
  pid: number;
  gen: string;
}

/**
 * One engine per data directory: two would append to the same journal and
 * corrupt it. `engine.lock` (the head) holds its owner's pid and a random
 * generation; a lock whose process no longer exists (a crash, kill -9) is taken
 * over. Why exactly one of several engines starting together wins:
 *
 * - Every lock file is written completely under a unique temp name and then
 *   hard-linked to its final name; link() fails with EEXIST when the name is
 *   taken, so a name is created by exactly one contender and is never seen
 *   half-written.
 * - No lock: link(temp, head). One contender creates it; the others find a live
 *   holder and get DataDirLockedError.
 * - Stale lock: deleting it and creating a new one (the old way) lets a slow
 *   contender delete the lock a faster one had just created, and both win.
 *   Instead a contender claims the dead generation G by linking its record to
 *   `engine.lock.G.next`; only one claim of G can exist. The claimer then walks
 *   from the head again and, only if the walk still ends at its own claim,
 *   rename()s the claim over the head (atomic replace). The head changes only by
 *   such a rename (or by its live owner deleting it on release), the files form
 *   one chain (each record has at most one successor name, head -> G.next ->
 *   G2.next ...), and a walk stops at the first live holder: so at most one
 *   live claimer ends the chain at any moment, and a late contender whose claim
 *   name was freed by that rename sees the new head, backs off and deletes its
 *   claim. A claimer that died before renaming leaves a dead link in the chain,
 *   which the next contender claims past.
 * - Generations are random, never reused, so a claim can never match a later lock
 *   that happened to get the same pid or inode.
 *
 * A lock naming this process's own pid is stale too: after a restart in a
 * container the engine often gets the pid its previous incarnation had.
 */
export async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  const head = join(dataDir, LOCK_FILE);
  const mine: LockRecord = { pid: process.pid, gen: randomBytes(12).toString('hex') };
  const tmp = `${head}.${mine.gen}.tmp`;
  await writePrivateFile(tmp, `${mine.pid} ${mine.gen}\n`, 'wx');
  try {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (await linkIfFree(tmp, head)) return releaser(head, mine);
      const chain = await walk(head);
      // The head went away between link and read (its owner stopped): try again.
      if (!chain) continue;
      const last = chain[chain.length - 1]!;
      if (holds(last)) {
        // A walk reads file by file: a claim read after the head may be a late one made once
        // the head had been replaced, whose owner is about to back off. The head unchanged
        // since means the claim was made under it, so its owner is the one that wins.
        if (chain.length === 1 || (await readRecord(head))?.gen === chain[0]!.gen) {
          throw new DataDirLockedError(dataDir, last.pid);
        }
        continue;
      }
      const claim = claimPath(head, last.gen);
      if (!(await linkIfFree(tmp, claim))) continue;
      const now = await walk(head);
      if (now?.[now.length - 1]?.gen === mine.gen) {
        await rename(claim, head);
        // The dead claimers' links (all but the head, replaced now, and our own claim).
        for (const r of now.slice(0, -2)) await unlink(claimPath(head, r.gen)).catch(() => undefined);
        return releaser(head, mine);
      }
      // The head changed meanwhile (another contender won): our claim is void.
      await unlink(claim).catch(() => undefined);
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  throw new Error(`Could not take the engine lock ${head}; remove it if no engine is running.`);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const claimPath = (head: string, gen: string): string => `${head}.${gen}.next`;

/** A record held by a live process other than this one. */
const holds = (r: LockRecord): boolean => r.pid > 0 && r.pid !== process.pid && isAlive(r.pid);

async function linkIfFree(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** The chain from the head to its first live holder or its end; null when there is no head. */
async function walk(head: string): Promise<LockRecord[] | null> {
  let record = await readRecord(head);
  if (!record) return null;
  const chain: LockRecord[] = [];
  while (record) {
    chain.push(record);
    if (holds(record) || chain.length > MAX_CHAIN) break;
    record = await readRecord(claimPath(head, record.gen));
  }
  return chain;
}

async function readRecord(path: string): Promise<LockRecord | null> {
  const text = await readTextIfExists(path);
  if (text === null) return null;
  const [pidText = '', gen] = text.trim().split(/\s+/);
  const pid = /^\d+$/.test(pidText) ? Number(pidText) : 0;
  // Locks written before generations existed hold only a pid; unreadable ones count as dead.
  return { pid, gen: gen && /^[0-9a-f]+$/.test(gen) ? gen : `legacy-${pid}` };
}

function releaser(head: string, mine: LockRecord): () => Promise<void> {
  return async () => {
    // Only our own lock: never delete one that somebody put there after removing ours by hand.
    if ((await readRecord(head))?.gen === mine.gen) await unlink(head).catch(() => undefined);
  };
}
