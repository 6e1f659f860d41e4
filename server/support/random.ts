import { randomBytes } from 'node:crypto';

/** Randomness is injected so ids and secrets are reproducible in tests. */
export interface Random {
  bytes(n: number): Buffer;
}

export const cryptoRandom: Random = { bytes: (n) => randomBytes(n) };

/** Deterministic generator for tests (xorshift32); never for secrets in production. */
export class SeededRandom implements Random {
  private state: number;
  constructor(seed = 0x9e3779b9) {
    this.state = seed >>> 0 || 1;
  }
  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) {
      let x = this.state;
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      this.state = x >>> 0;
      out[i] = this.state & 0xff;
    }
    return out;
  }
}
