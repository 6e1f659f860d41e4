import type { MetricsWindowName } from './metrics-window.ts';

export interface MetricsQuery {
  window: MetricsWindowName;
  endpointId?: string;
}
