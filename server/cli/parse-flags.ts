import { UsageError } from './cli-output.ts';

export function parsePort(value: string, flag: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new UsageError(`${flag} must be a port number from 0 to 65535 (0 picks a free port), got "${value}".`);
  }
  return Number(value);
}

export function parseIntFlag(value: string, flag: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return Number(value);
}

export function parseChoice<T extends string>(value: string, flag: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of: ${choices.join(', ')}, got "${value}".`);
  }
  return value as T;
}

export function parseUrlFlag(value: string, flag: string): string {
  try {
    const u = new URL(value);
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '') return value;
  } catch {
    // reported below
  }
  throw new UsageError(`${flag} must be an absolute http:// or https:// URL, got "${value}".`);
}
