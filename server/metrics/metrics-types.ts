import type { LogSizeStats } from '../logs/log-types.ts';
import type { ReplayStats } from '../replay/replay-types.ts';
import type { MetricsWindowName } from './metrics-window.ts';

export interface MetricsQuery {
  window: MetricsWindowName;
  endpointId?: string;
}

/** received = success + failed + rejected, always. */
export interface DeliveryCounts {
  received: number;
  success: number;
  failed: number;
  rejected: number;
}

export interface EndpointMetrics extends DeliveryCounts {
  endpointId: string;
  name: string;
  /** success / received; null when nothing was received (no rate to speak of, rather than a misleading 0 or 1). */
  successRate: number | null;
  /** The latest delivery in the window, stored or rejected; null when none. */
  lastReceivedAt: string | null;
}

export interface SeriesPoint extends DeliveryCounts {
  /** Start of the bucket. */
  t: string;
}

export interface MetricsReport {
  window: MetricsWindowName;
  from: string;
  to: string;
  bucketSeconds: number;
  totals: DeliveryCounts;
  successRate: number | null;
  endpoints: EndpointMetrics[];
  series: SeriesPoint[];
  verificationFailures: { reason: string; count: number }[];
  /** Refused deliveries (nothing stored) by reason, most first: endpoint_inactive, rate_limited. */
  rejections: { reason: string; count: number }[];
  replays: ReplayStats;
  payloadSizes: LogSizeStats;
}
