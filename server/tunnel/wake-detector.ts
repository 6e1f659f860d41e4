import type { Clock } from '../support/clock.ts';

/**
 * Notices that the machine slept (or the process was stopped). Timers run on a
 * monotonic clock that stands still while a laptop sleeps, and the wall clock
 * does not: a tick that finds the wall clock far ahead of its interval means
 * time passed that the process did not see. The tunnel server has usually
 * dropped the tunnel's sockets by then without the client knowing, so the
 * supervisor checks the public URL at once instead of waiting out its probe
 * interval (30 s by default, which a GitHub delivery with no retries cannot wait).
 */
export class WakeDetector {
  private timer: NodeJS.Timeout | null = null;
  private last = 0;

  /**
   * @param tickMs how often to look at the clock
   * @param slackMs how far beyond a tick counts as a sleep (a busy event loop delays a tick by seconds, not minutes)
   */
  constructor(
    private readonly clock: Clock,
    private readonly tickMs: number,
    private readonly slackMs: number,
  ) {}

  /** Calls `onWake` after each tick that found a jump; replaces an earlier start. */
  start(onWake: () => void): void {
    this.stop();
    this.last = this.clock.now();
    this.timer = setInterval(() => {
      const now = this.clock.now();
      const jumped = now - this.last > this.tickMs + this.slackMs;
      this.last = now;
      if (jumped) onWake();
    }, this.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
