import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { REFUSALS_EVENT_INTERVAL_MS, RefusalsNotifier } from '../../../server/metrics/refusals-notifier.ts';
import type { Refusals } from '../../../server/metrics/refusals-schemas.ts';
import { ManualClock } from '../../../server/support/clock.ts';
import type { Scheduler } from '../../../server/support/scheduler.ts';

/** Timers a test fires by hand: each booked one with its delay. */
class HandScheduler implements Scheduler {
  booked: { fn: () => void; ms: number; cleared: boolean }[] = [];
  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { fn, ms, cleared: false };
    this.booked.push(timer);
    return timer;
  }
  clearTimeout(handle: unknown): void {
    (handle as { cleared: boolean }).cleared = true;
  }
  /** Delays of the timers not yet fired or cleared. */
  pending(): number[] {
    return this.booked.filter((t) => !t.cleared).map((t) => t.ms);
  }
  /** Fires the oldest pending timer. */
  fire(): void {
    const t = this.booked.find((b) => !b.cleared);
    assert.ok(t, 'no timer booked');
    t.cleared = true;
    t.fn();
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The throttle alone, with a hand-driven clock and timers: exactly when events
 * are booked, and that each reads the counts when it is sent.
 */
describe('RefusalsNotifier: at most one event per account per interval', () => {
  const setup = () => {
    const clock = new ManualClock(Date.parse('2026-03-01T12:00:00Z'));
    const scheduler = new HandScheduler();
    const published: { accountId: string; total: number }[] = [];
    const errors: unknown[] = [];
    let total = 0;
    const reads: string[] = [];
    let release: (() => void) | null = null;
    let holdReads = false;
    const notifier = new RefusalsNotifier({
      refusals: {
        read: async (accountId, window) => {
          reads.push(`${accountId}:${window}`);
          if (holdReads) await new Promise<void>((r) => (release = r));
          return { total } as Refusals;
        },
      },
      events: { publish: (accountId, _type, data) => published.push({ accountId, total: data.total }) },
      clock,
      scheduler,
      onError: (e) => errors.push(e),
    });
    return {
      clock,
      scheduler,
      notifier,
      published,
      errors,
      reads,
      setTotal: (n: number) => (total = n),
      hold: (on: boolean) => (holdReads = on),
      release: () => release?.(),
    };
  };

  test('the first refusal is told at once; a flood meanwhile books nothing more; the event reads the counts when sent', async () => {
    const s = setup();
    s.setTotal(1);
    s.notifier.counted(['acc_a']);
    assert.deepEqual(s.scheduler.pending(), [0]);
    for (let i = 0; i < 10_000; i++) s.notifier.counted(['acc_a']);
    assert.deepEqual(s.scheduler.pending(), [0], 'one booked event, however many refusals');
    s.setTotal(10_001);
    s.scheduler.fire();
    await turn();
    assert.deepEqual(s.published, [{ accountId: 'acc_a', total: 10_001 }]);
    assert.deepEqual(s.reads, ['acc_a:1m']);
  });

  test('after an event, the next waits out the rest of the interval', async () => {
    const s = setup();
    s.notifier.counted(['acc_a']);
    s.scheduler.fire();
    await turn();
    s.clock.advance(200);
    s.notifier.counted(['acc_a']);
    assert.deepEqual(s.scheduler.pending(), [REFUSALS_EVENT_INTERVAL_MS - 200]);
    s.clock.advance(REFUSALS_EVENT_INTERVAL_MS - 200);
    s.scheduler.fire();
    await turn();
    // Quiet for longer than the interval: told at once again.
    s.clock.advance(REFUSALS_EVENT_INTERVAL_MS + 1);
    s.notifier.counted(['acc_a']);
    assert.deepEqual(s.scheduler.pending(), [0]);
    assert.equal(s.published.length, 2);
  });

  test('refusals counted while an event reads book the next slot a whole interval on', async () => {
    const s = setup();
    s.hold(true);
    s.notifier.counted(['acc_a']);
    s.scheduler.fire();
    s.notifier.counted(['acc_a']);
    assert.deepEqual(s.scheduler.pending(), [REFUSALS_EVENT_INTERVAL_MS]);
    s.release();
    await turn();
    assert.equal(s.published.length, 1);
  });

  test('a clock stepping back delays an event by one interval at most', () => {
    const s = setup();
    s.notifier.counted(['acc_a']);
    s.scheduler.fire();
    s.clock.advance(-3_600_000);
    s.notifier.counted(['acc_a']);
    assert.deepEqual(s.scheduler.pending(), [REFUSALS_EVENT_INTERVAL_MS]);
  });

  test('accounts are throttled apart, and each event goes to its own account', async () => {
    const s = setup();
    s.notifier.counted(['acc_a', 'acc_b']);
    assert.deepEqual(s.scheduler.pending(), [0, 0]);
    s.scheduler.fire();
    s.scheduler.fire();
    await turn();
    assert.deepEqual(
      s.published.map((p) => p.accountId),
      ['acc_a', 'acc_b'],
    );
    assert.deepEqual(s.reads, ['acc_a:1m', 'acc_b:1m']);
  });

  test('stop drops booked events and ignores later refusals', async () => {
    const s = setup();
    s.notifier.counted(['acc_a']);
    s.notifier.stop();
    assert.deepEqual(s.scheduler.pending(), []);
    s.notifier.counted(['acc_a']);
    assert.deepEqual(s.scheduler.pending(), []);
    assert.deepEqual(s.published, []);
  });

  test('a failed read is reported, not thrown, and the next refusal is told again', async () => {
    const s = setup();
    const failing = new RefusalsNotifier({
      refusals: { read: () => Promise.reject(new Error('store closed')) },
      events: { publish: () => assert.fail('nothing to publish') },
      clock: s.clock,
      scheduler: s.scheduler,
      onError: (e) => s.errors.push(e),
    });
    failing.counted(['acc_a']);
    s.scheduler.fire();
    await turn();
    assert.deepEqual(
      s.errors.map((e) => (e as Error).message),
      ['store closed'],
    );
    s.clock.advance(REFUSALS_EVENT_INTERVAL_MS);
    failing.counted(['acc_a']);
    assert.deepEqual(s.scheduler.pending(), [0]);
  });
});
