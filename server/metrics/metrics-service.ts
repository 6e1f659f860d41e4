import type { AccountContext } from '../auth/account-context.ts';
import type { EndpointsService } from '../endpoints/endpoints-service.ts';
import type { LogsService } from '../logs/logs-service.ts';
import type { RejectedDelivery } from '../receiver/delivery-observer.ts';
import type { ReplayReader } from '../replay/replay-types.ts';
import { isoTime, type Clock } from '../support/clock.ts';
import type { MetricsRepository } from './metrics-repository.ts';
import type { DeliveryCounts, EndpointMetrics, MetricsQuery, MetricsReport, SeriesPoint } from './metrics-types.ts';
import { bucketStart, MAX_WINDOW_MS, metricsWindow, MIN_BUCKET_MS, minuteOf } from './metrics-window.ts';

export interface MetricsServiceDeps {
  repo: MetricsRepository;
  /** Stored deliveries: metrics asks the logs feature, never its tables. */
  logs: Pick<LogsService, 'stats'>;
  endpoints: Pick<EndpointsService, 'list'>;
  replays: ReplayReader;
  clock: Clock;
}

const zero = (): DeliveryCounts => ({ received: 0, success: 0, failed: 0, rejected: 0 });
const rate = (c: DeliveryCounts): number | null => (c.received === 0 ? null : c.success / c.received);

/**
 * Delivery metrics of an account over a window. Stored deliveries (success,
 * failed) come from the logs feature; refused ones (rejected) are counted here,
 * since they leave no log; replays come from the replay feature's reader.
 */
export class MetricsService {
  constructor(private readonly deps: MetricsServiceDeps) {}

  /** A delivery refused without storing (the receiver's observer calls this before answering 410). */
  async countRejection(r: RejectedDelivery): Promise<void> {
    // Kept a minute longer than the longest window so a window's first bucket is always whole.
    const pruneBefore = minuteOf(r.at) - MAX_WINDOW_MS - MIN_BUCKET_MS;
    await this.deps.repo.countRejection(r.accountId, r.endpointId, minuteOf(r.at), r.at, pruneBefore);
  }

  async report(account: AccountContext, q: MetricsQuery): Promise<MetricsReport> {
    const w = metricsWindow(q.window, this.deps.clock.now());
    const [logs, rejections, replays] = await Promise.all([
      this.deps.logs.stats(account.id, { fromMs: w.fromMs, toMs: w.toMs, bucketMs: w.bucketMs, endpointId: q.endpointId }),
      this.deps.repo.rejections(account.id, w.fromMs, w.toMs, w.bucketMs, q.endpointId),
      this.deps.replays.stats(account.id, w.fromMs),
    ]);

    // Only the account's current endpoints count: a deleted endpoint's logs are gone,
    // and its rejection counts are left out the same way, so totals match the endpoints.
    const known = this.deps.endpoints
      .list(account)
      .endpoints.filter((e) => q.endpointId === undefined || e.id === q.endpointId);
    const perEndpoint = new Map(known.map((e) => [e.id, { name: e.name, counts: zero(), last: null as number | null }]));
    const series: DeliveryCounts[] = Array.from({ length: w.buckets }, zero);
    const totals = zero();

    const add = (endpointId: string, bucket: number, key: 'success' | 'failed' | 'rejected', n: number, at: number): void => {
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
    for (const c of rejections) add(c.endpointId, c.bucket, 'rejected', c.count, c.lastAt);

    const endpoints: EndpointMetrics[] = [...perEndpoint]
      .map(([endpointId, e]) => ({
        endpointId,
        name: e.name,
        ...e.counts,
        successRate: rate(e.counts),
        lastReceivedAt: e.last === null ? null : isoTime(e.last),
      }))
      .sort((a, b) => b.received - a.received || a.name.localeCompare(b.name) || a.endpointId.localeCompare(b.endpointId));

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
      replays,
      payloadSizes: logs.sizes,
    };
  }
}
