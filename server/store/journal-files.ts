import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

// Journal segments are `journal-000001.log`, `journal-000002.log`, ...
// A checkpoint rotates to a new segment and, once the snapshot is safe, deletes the older ones.
const SEGMENT = /^journal-(\d{6,})\.log$/;

export const SNAPSHOT_FILE = 'hookscope.db';

export const segmentName = (n: number): string => `journal-${String(n).padStart(6, '0')}.log`;

export async function listSegments(dir: string): Promise<{ n: number; path: string }[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .map((name) => ({ m: SEGMENT.exec(name), name }))
    .filter((x): x is { m: RegExpExecArray; name: string } => x.m !== null)
    .map(({ m, name }) => ({ n: Number(m[1]), path: join(dir, name) }))
    .sort((a, b) => a.n - b.n);
}
