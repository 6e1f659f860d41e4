import type { ReceiverEndpoint } from '../endpoints/endpoint-types.ts';
import { isoTime, type Clock } from '../support/clock.ts';
import type { MetricsRepository } from './metrics-repository.ts';
import { MIN_BUCKET_MS, minuteOf } from './metrics-window.ts';
import { isRefusalReason, type RefusalReason } from './refusal-reasons.ts';
import type { ReasonCount, Refusals, RefusalWindow } from './refusals-schemas.ts';

export interface RefusalsServiceDeps {
  repo: MetricsRepository;
  /** Which endpoints exist: a deleted endpoint's counts are left out, as in the metrics report. */
  endpoints: { forReceiver(id: string): ReceiverEndpoint | undefined };
  clock: Clock;
}

const WINDOW_MS: Record<RefusalWindow, number> = { '1m': 60_000, '1h': 3_600_000 };

interface Tally {
  count: number;
  lastAt: number;
}

/**
 * Refused deliveries of an account over a short window, by reason and endpoint:
 * what the UI shows as "431 refused by the rate limit in the last minute".
 * Counts are kept per whole minute (metrics_rejections), so the window is whole
 * minutes too: from the minute that held `now - window` to the end of the current one.
 */
export class RefusalsService {
  constructor(private readonly deps: RefusalsServiceDeps) {}

  async read(accountId: string, window: RefusalWindow, endpointId?: string): Promise<Refusals> {
    const now = this.deps.clock.now();
    const fromMs = minuteOf(now - WINDOW_MS[window]);
    const toMs = minuteOf(now) + MIN_BUCKET_MS;
    // One bucket spanning the whole window: one cell per endpoint and reason.
    const cells = await this.deps.repo.rejections(accountId, fromMs, toMs, toMs - fromMs, endpointId);

    const total: Tally = { count: 0, lastAt: 0 };
    const byReason = new Map<RefusalReason, Tally>();
    const byEndpoint = new Map<string, { tally: Tally; reasons: Map<RefusalReason, Tally> }>();
    for (const c of cells) {
      // The rows are the account's own; a deleted endpoint's are left out.
      if (!this.deps.endpoints.forReceiver(c.endpointId) || !isRefusalReason(c.reason)) continue;
      let e = byEndpoint.get(c.endpointId);
      if (!e) {
        e = { tally: { count: 0, lastAt: 0 }, reasons: new Map() };
        byEndpoint.set(c.endpointId, e);
      }
      for (const t of [total, e.tally, tallyOf(byReason, c.reason), tallyOf(e.reasons, c.reason)]) {
        t.count += c.count;
        t.lastAt = Math.max(t.lastAt, c.lastAt);
      }
    }

    return {
      window,
      from: isoTime(fromMs),
      to: isoTime(toMs),
      total: total.count,
      lastAt: total.count === 0 ? null : isoTime(total.lastAt),
      reasons: reasonCounts(byReason),
      endpoints: [...byEndpoint]
        .map(([id, e]) => ({
          endpointId: id,
          total: e.tally.count,
          lastAt: isoTime(e.tally.lastAt),
          reasons: reasonCounts(e.reasons),
        }))
        .sort((a, b) => b.total - a.total || a.endpointId.localeCompare(b.endpointId)),
    };
  }
}

function tallyOf(map: Map<RefusalReason, Tally>, reason: RefusalReason): Tally {
  let t = map.get(reason);
  if (!t) {
    t = { count: 0, lastAt: 0 };
    map.set(reason, t);
  }
  return t;
}

function reasonCounts(map: Map<RefusalReason, Tally>): ReasonCount[] {
  return [...map]
    .map(([reason, t]) => ({ reason, count: t.count, lastAt: isoTime(t.lastAt) }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}
