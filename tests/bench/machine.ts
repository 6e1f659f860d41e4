import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, release } from 'node:os';

export interface MachineInfo {
  nproc: number;
  cpu: string;
  free: string;
  node: string;
  kernel: string;
  loadAverage: string;
}

/** What the figures depend on, as `nproc` and `free -h` show it. */
export function machineInfo(): MachineInfo {
  let free = '(free not available)';
  try {
    free = execFileSync('free', ['-h'], { encoding: 'utf8' }).trimEnd();
  } catch {
    // not on Linux: leave the note
  }
  return {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    free,
    node: process.version,
    kernel: `${process.platform} ${release()}`,
    loadAverage: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
}
