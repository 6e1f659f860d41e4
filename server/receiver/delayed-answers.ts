import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { CustomResponse } from '../endpoints/custom-response.ts';
import { writeCustomAnswer } from './custom-answer.ts';

/**
 * Custom answers waiting out their endpoint's delay. The delivery is stored and
 * its body released before the wait starts, so a wait holds only the response
 * and a timer: no body budget, nothing that blocks other deliveries. A wait ends
 * early when the sender hangs up (nothing to answer) or when the engine stops
 * (answered at once, so closing the listener is never held up by a delay).
 */
export class DelayedAnswers {
  private readonly waits = new Set<AbortController>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;

  constructor(private readonly onError: (err: unknown) => void) {}

  /** Answers after `answer.delayMs` (at once without a delay); errors go to the engine's fault log. */
  send(res: ServerResponse, answer: CustomResponse, logId: string): void {
    if (answer.delayMs === 0) {
      writeCustomAnswer(res, answer, logId);
      return;
    }
    const done: Promise<void> = this.waitThenAnswer(res, answer, logId)
      .catch(this.onError)
      .finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
  }

  /** How many answers wait out a delay now. */
  get waiting(): number {
    return this.waits.size;
  }

  /** The engine stops: every waiting answer is sent now, and later ones without their delay. */
  async flush(): Promise<void> {
    this.stopping = true;
    for (const wait of this.waits) wait.abort();
    await Promise.all(this.inFlight);
  }

  private async waitThenAnswer(res: ServerResponse, answer: CustomResponse, logId: string): Promise<void> {
    if (!this.stopping) {
      const wait = new AbortController();
      const senderLeft = (): void => wait.abort();
      this.waits.add(wait);
      res.once('close', senderLeft);
      try {
        await delay(answer.delayMs, undefined, { signal: wait.signal });
      } catch (e) {
        if (!wait.signal.aborted) throw e;
      } finally {
        this.waits.delete(wait);
        res.off('close', senderLeft);
      }
    }
    // The sender hung up during the wait: its delivery is stored, and there is no one to answer.
    if (res.destroyed) return;
    // A stopping engine closes the connection after the answer rather than keep it alive.
    if (this.stopping) res.shouldKeepAlive = false;
    writeCustomAnswer(res, answer, logId);
  }
}
