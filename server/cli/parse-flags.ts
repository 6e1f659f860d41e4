import { UsageError } from './cli-output.ts';

export function parsePort(value: string, flag: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new UsageError(`${flag} must be a port number from 0 to 65535 (0 picks a free port), got "${value}".`);
  }
  return Number(value);
}
