import type { LogStatus, LogSummary } from '../api/client.ts';

export interface DeliveryFilter {
  status: 'all' | LogStatus;
  /** Text the engine searches for in bodies, headers and paths. */
  search: string;
  endpointId: string | null;
}

export const ALL_DELIVERIES: DeliveryFilter = { status: 'all', search: '', endpointId: null };

/** The status chips, in order, with their names: "All", then every status the API document lists. */
export const STATUS_CHIPS: Record<DeliveryFilter['status'], string> = {
  all: 'All',
  success: 'Success',
  failed: 'Failed',
};

/**
 * Whether a live delivery belongs in the list as filtered. A search runs in the
 * engine (bodies are not in the summary), so with one active the answer is
 * "unknown" and the list asks the engine again instead.
 */
export function matchesFilter(log: LogSummary, f: DeliveryFilter): boolean | 'unknown' {
  if (f.endpointId !== null && log.endpointId !== f.endpointId) return false;
  if (f.status !== 'all' && log.status !== f.status) return false;
  return f.search.trim() === '' ? true : 'unknown';
}

/** The list query for a filter (what GET /api/webhooks/logs takes), from `offset` on. */
export function listQuery(f: DeliveryFilter, limit: number, offset = 0) {
  return {
    limit: String(limit),
    ...(offset > 0 ? { offset: String(offset) } : {}),
    ...(f.status !== 'all' ? { status: f.status } : {}),
    ...(f.search.trim() !== '' ? { search: f.search.trim() } : {}),
    ...(f.endpointId !== null ? { endpointId: f.endpointId } : {}),
  };
}
