import { monotonicFactory } from 'ulid';
import type { Clock } from './clock.ts';
import type { Random } from './random.ts';
import { randomFraction } from './random-fraction.ts';

// Crockford's base32, lower-case: 32 symbols so `byte & 31` is unbiased and ids read unambiguously.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Opaque, lower-case ids: `ep_…`, `rp_…`; log ids are time-sortable (`log_` + ULID). */
export class IdGenerator {
  private readonly ulid: (seedTime?: number) => string;

  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
  ) {
    this.ulid = monotonicFactory(() => randomFraction(this.random));
  }

  opaque(prefix: string, length = 20): string {
    const bytes = this.random.bytes(length);
    let out = '';
    for (const b of bytes) out += ALPHABET[b & 31];
    return `${prefix}_${out}`;
  }

  sortable(prefix: string): string {
    return `${prefix}_${this.ulid(this.clock.now()).toLowerCase()}`;
  }
}
