// Another process's resident memory, read from outside it (Linux /proc), so a
// sample is taken on time even while that process's event loop is busy.
import { readFileSync } from 'node:fs';

/** VmRSS of `pid` in MB (main thread and workers together), or null where /proc has no answer. */
export function residentMb(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}
