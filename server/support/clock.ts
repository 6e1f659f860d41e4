/** Time is injected everywhere so expiry, tolerance and retention are tested exactly. */
export interface Clock {
  now(): number; // milliseconds since the epoch
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export const isoTime = (ms: number): string => new Date(ms).toISOString();
