import type { Clock } from '../support/clock.ts';
import type { Scheduler } from '../support/scheduler.ts';
import type { Refusals, RefusalWindow } from './refusals-schemas.ts';

/** At most one `refusals.counted` event per account in this many milliseconds. */
export const REFUSALS_EVENT_INTERVAL_MS = 1000;

export interface RefusalsNotifierDeps {
  refusals: { read(accountId: string, window: RefusalWindow): Promise<Refusals> };
  /** The engine's event bus, whose event map (server/events/event-map.ts) checks this signature. */
  events: { publish(accountId: string, type: 'refusals.counted', data: Refusals): unknown };
  clock: Clock;
  scheduler: Scheduler;
  onError: (err: unknown) => void;
}

interface AccountState {
  timer: unknown;
  sentAt: number | null;
}

/**
 * Tells an account's live clients that refusals were counted, throttled: a flood
 * of 10,000 refusals a second must not become 10,000 events. The first refusal
 * after a quiet second is told at once; later ones wait for the next slot, and
 * however many arrive meanwhile, that slot sends one event. Each event carries
 * the counts of the last minute as `GET /api/observability/refusals` reads them
 * when it is sent, so the last event of a burst has the burst's exact counts.
 */
export class RefusalsNotifier {
  private readonly accounts = new Map<string, AccountState>();
  private stopped = false;

  constructor(private readonly deps: RefusalsNotifierDeps) {}

  /** Refusals of these accounts are now in the store (a flush of the counts finished). */
  counted(accountIds: Iterable<string>): void {
    if (this.stopped) return;
    for (const accountId of accountIds) {
      const state = this.accounts.get(accountId) ?? { timer: null, sentAt: null };
      this.accounts.set(accountId, state);
      // A slot is already booked: it reads the counts when it comes, these included.
      if (state.timer !== null) continue;
      // Clamped, so a clock stepping back cannot postpone the event by more than one interval.
      const wait =
        state.sentAt === null
          ? 0
          : Math.min(
              REFUSALS_EVENT_INTERVAL_MS,
              Math.max(0, state.sentAt + REFUSALS_EVENT_INTERVAL_MS - this.deps.clock.now()),
            );
      state.timer = this.deps.scheduler.setTimeout(() => void this.send(accountId, state), wait);
    }
  }

  private async send(accountId: string, state: AccountState): Promise<void> {
    state.timer = null;
    // Set before the read: counts flushed while it runs book the next slot, a full interval on.
    state.sentAt = this.deps.clock.now();
    try {
      const data = await this.deps.refusals.read(accountId, '1m');
      if (!this.stopped) this.deps.events.publish(accountId, 'refusals.counted', data);
    } catch (e) {
      if (!this.stopped) this.deps.onError(e);
    }
  }

  /** The engine stops: booked events are dropped (clients reconnect and read the counts). */
  stop(): void {
    this.stopped = true;
    for (const state of this.accounts.values()) {
      if (state.timer !== null) this.deps.scheduler.clearTimeout(state.timer);
    }
    this.accounts.clear();
  }
}
