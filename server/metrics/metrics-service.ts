import type { AccountContext } from '../auth/account-context.ts';
import type { EndpointsService } from '../endpoints/endpoints-service.ts';
import type { LogsService } from '../logs/logs-service.ts';
import type { ReplayReader } from '../replay/replay-types.ts';
import { isoTime, type Clock } from '../support/clock.ts';
import type { MetricsRepository, RejectionTally } from './metrics-repository.ts';
import type { MetricsQuery } from './metrics-types.ts';
import type { DeliveryCounts, EndpointMetrics, MetricsReport, SeriesPoint } from './metrics-schemas.ts';
import { bucketStart, MAX_WINDOW_MS, metricsWindow, MIN_BUCKET_MS, minuteOf } from './metrics-window.ts';
import { leftNoLog, type CountedRefusal } from './refusal-reasons.ts';

export interface MetricsServiceDeps {
  repo: MetricsRepository;
  /** Stored deliveries: metrics asks the logs feature, never its tables. */
  logs: Pick<LogsService, 'stats'>;
  endpoints: Pick<EndpointsService, 'list'>;
  replays: ReplayReader;
  clock: Clock;
  /** Told, once their counts are stored, which accounts just had refusals (the live event follows). */
  refusalsCounted: (accountIds: ReadonlySet<string>) => void;
}

const zero = (): DeliveryCounts => ({ received: 0, success: 0, failed: 0, rejected: 0 });
const rate = (c: DeliveryCounts): number | null => (c.received === 0 ? null : c.success / c.received);

/**
 * Delivery metrics of an account over a window. Stored deliveries (success,
 * failed) come from the logs feature; refused ones (rejected) are counted here,
 * since they leave no log; replays come from the replay feature's reader.
 */
export class MetricsService {
  /** Rejections waiting for the next write, by account, endpoint, minute and reason. */
  private pending = new Map<string, RejectionTally>();
  private flushing: Promise<void> | null = null;

  constructor(private readonly deps: MetricsServiceDeps) {}

  /**
   * A refused delivery (the receiver's observer calls this before answering 410,
   * 429 or 413). Rejections that arrive in the same turn of the event loop share
   * one journal record, so a flood over the rate limit costs one small write per
   * turn rather than one per request.
   */
  countRejection(r: CountedRefusal): Promise<void> {
    const minute = minuteOf(r.at);
    const key = `${r.accountId}\u0000${r.endpointId}\u0000${minute}\u0000${r.reason}`;
    const t = this.pending.get(key);
    if (t) {
      t.count += 1;
      t.lastAt = Math.max(t.lastAt, r.at);
    } else {
      this.pending.set(key, {
        accountId: r.accountId,
        endpointId: r.endpointId,
        minute,
        reason: r.reason,
        count: 1,
        lastAt: r.at,
      });
    }
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
    return this.flushing;
  }

  private async flush(): Promise<void> {
    const tallies = [...this.pending.values()];
    this.pending = new Map();
    this.flushing = null;
    // Kept a minute longer than the longest window so a window's first bucket is always whole.
    const pruneBefore = minuteOf(this.deps.clock.now()) - MAX_WINDOW_MS - MIN_BUCKET_MS;
    await this.deps.repo.countRejections(tallies, () => pruneBefore);
    this.deps.refusalsCounted(new Set(tallies.map((t) => t.accountId)));
  }

  async report(account: AccountContext, q: MetricsQuery): Promise<MetricsReport> {
    const w = metricsWindow(q.window, this.deps.clock.now());
    const [logs, rejections, replays] = await Promise.all([
      this.deps.logs.stats(account.id, {
        fromMs: w.fromMs,
        toMs: w.toMs,
        bucketMs: w.bucketMs,
        endpointId: q.endpointId,
      }),
      this.deps.repo.rejections(account.id, w.fromMs, w.toMs, w.bucketMs, q.endpointId),
      this.deps.replays.stats(account.id, w.fromMs),
    ]);

    // Only the account's current endpoints count: a deleted endpoint's logs are gone,
    // and its rejection counts are left out the same way, so totals match the endpoints.
    const known = this.deps.endpoints
      .list(account)
      .endpoints.filter((e) => q.endpointId === undefined || e.id === q.endpointId);
    const perEndpoint = new Map(
      known.map((e) => [e.id, { name: e.name, counts: zero(), last: null as number | null }]),
    );
    const series: DeliveryCounts[] = Array.from({ length: w.buckets }, zero);
    const totals = zero();

    const add = (
      endpointId: string,
      bucket: number,
      key: 'success' | 'failed' | 'rejected',
      n: number,
      at: number,
    ): void => {
      const e = perEndpoint.get(endpointId);
      const point = series[bucket];
      if (!e || !point || n === 0) return;
      for (const c of [e.counts, point, totals]) {
        c[key] += n;
        c.received += n;
      }
      if (e.last === null || at > e.last) e.last = at;
    };
    for (const c of logs.cells) {
      add(c.endpointId, c.bucket, 'success', c.success, c.lastReceivedAt);
      add(c.endpointId, c.bucket, 'failed', c.failed, c.lastReceivedAt);
    }
    const rejectionReasons = new Map<string, number>();
    for (const c of rejections) {
      // Too-large deliveries are counted with refusals, and are already `failed` logs here.
      if (!leftNoLog(c.reason)) continue;
      add(c.endpointId, c.bucket, 'rejected', c.count, c.lastAt);
      if (perEndpoint.has(c.endpointId))
        rejectionReasons.set(c.reason, (rejectionReasons.get(c.reason) ?? 0) + c.count);
    }

    const endpoints: EndpointMetrics[] = [...perEndpoint]
      .map(([endpointId, e]) => ({
        endpointId,
        name: e.name,
        ...e.counts,
        successRate: rate(e.counts),
        lastReceivedAt: e.last === null ? null : isoTime(e.last),
      }))
      .sort(
        (a, b) => b.received - a.received || a.name.localeCompare(b.name) || a.endpointId.localeCompare(b.endpointId),
      );

    return {
      window: w.window,
      from: isoTime(w.fromMs),
      to: isoTime(w.toMs),
      bucketSeconds: w.bucketMs / 1000,
      totals,
      successRate: rate(totals),
      endpoints,
      series: series.map((c, i): SeriesPoint => ({ t: isoTime(bucketStart(w, i)), ...c })),
      verificationFailures: logs.failureReasons,
      rejections: [...rejectionReasons]
        .map(([reason, count]) => ({ reason, count }))
        .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
      replays,
      payloadSizes: logs.sizes,
    };
  }
}
