import { describe, expect, test } from 'vitest';
import type { LogSummary } from '../api/client.ts';
import { ALL_DELIVERIES, listQuery, matchesFilter } from './delivery-filter.ts';

const log = (over: Partial<LogSummary>): LogSummary =>
  ({ endpointId: 'ep_a', status: 'success', ...over }) as LogSummary;

describe('delivery filters', () => {
  test('a live delivery matches by endpoint and status; with a search, only the engine can tell', () => {
    expect(matchesFilter(log({}), ALL_DELIVERIES)).toBe(true);
    expect(matchesFilter(log({ endpointId: 'ep_b' }), { ...ALL_DELIVERIES, endpointId: 'ep_a' })).toBe(false);
    expect(matchesFilter(log({ status: 'failed' }), { ...ALL_DELIVERIES, status: 'success' })).toBe(false);
    expect(matchesFilter(log({ status: 'failed' }), { ...ALL_DELIVERIES, status: 'failed' })).toBe(true);
    expect(matchesFilter(log({}), { ...ALL_DELIVERIES, search: 'cus_42' })).toBe('unknown');
    expect(matchesFilter(log({}), { ...ALL_DELIVERIES, search: '   ' })).toBe(true);
    // A non-matching endpoint is known to be out even with a search.
    expect(matchesFilter(log({ endpointId: 'ep_b' }), { status: 'all', search: 'x', endpointId: 'ep_a' })).toBe(false);
  });

  test('the list query carries only what is set', () => {
    expect(listQuery(ALL_DELIVERIES, 200)).toEqual({ limit: '200' });
    expect(listQuery({ status: 'failed', search: ' cus ', endpointId: 'ep_a' }, 50)).toEqual({
      limit: '50',
      status: 'failed',
      search: 'cus',
      endpointId: 'ep_a',
    });
  });
});
