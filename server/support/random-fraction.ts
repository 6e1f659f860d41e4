import type { Random } from './random.ts';

/**
 * A number in [0, 1) from the injected randomness (32 random bits over 2^32), so
 * jitter and ULID randomness are reproducible in tests like every other draw.
 */
export function randomFraction(random: Random): number {
  return random.bytes(4).readUInt32BE(0) / 2 ** 32;
}
