import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { browserClient, type Endpoint } from '../../api/client.ts';
import type { Refusals } from '../../lib/refusal-lines.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { RefusalsRow } from './refusals-row.tsx';

const COUNTS: Refusals = {
  window: '1m',
  from: '2026-03-01T10:41:00.000Z',
  to: '2026-03-01T10:43:00.000Z',
  total: 436,
  lastAt: '2026-03-01T10:42:31.000Z',
  reasons: [
    { reason: 'rate_limited', count: 431, lastAt: '2026-03-01T10:42:31.000Z' },
    { reason: 'endpoint_inactive', count: 5, lastAt: '2026-03-01T10:42:10.000Z' },
  ],
  endpoints: [
    {
      endpointId: 'ep_orders',
      total: 431,
      lastAt: '2026-03-01T10:42:31.000Z',
      reasons: [{ reason: 'rate_limited', count: 431, lastAt: '2026-03-01T10:42:31.000Z' }],
    },
    {
      endpointId: 'ep_legacy',
      total: 5,
      lastAt: '2026-03-01T10:42:10.000Z',
      reasons: [{ reason: 'endpoint_inactive', count: 5, lastAt: '2026-03-01T10:42:10.000Z' }],
    },
  ],
};

function show() {
  // Nothing is asked of an engine here: the counts are handed to the store as an event would.
  const stores = createAppStores(browserClient('http://127.0.0.1:9'), memoryStorage());
  stores.endpoints.setState({
    loaded: true,
    endpoints: [{ id: 'ep_orders', name: 'Orders' } as Endpoint, { id: 'ep_legacy', name: 'Legacy' } as Endpoint],
  });
  render(
    <StoresContext.Provider value={stores}>
      <RefusalsRow />
    </StoresContext.Provider>,
  );
  return stores;
}

const lines = (): string[] =>
  within(screen.getByRole('region', { name: 'Refused deliveries' }))
    .getAllByRole('paragraph')
    .map((p) => p.textContent ?? '');

describe('the refusals row over the deliveries', () => {
  afterEach(cleanup);

  test('one line per reason with its count and where it is governed; the rate limit links to Settings', () => {
    const stores = show();
    expect(screen.queryByRole('region', { name: 'Refused deliveries' })).toBeNull();
    act(() => stores.refusals.getState().counted(COUNTS));
    expect(lines()).toEqual([
      '431 refused by the rate limit in the last minute (Orders)Rate limit in Settings',
      '5 refused because the endpoint is switched off in the last minute (Legacy)Switch it on in Endpoint settings',
    ]);
    const link = screen.getByRole('link', { name: 'Rate limit in Settings' });
    expect(link.getAttribute('href')).toBe('#/settings');
    // Exactly since when: the window is whole minutes.
    const count = screen.getByText('431 refused by the rate limit in the last minute (Orders)');
    expect(count.title).toMatch(
      /^Counted since \d\d:41:00 \(counts are kept per whole minute\); the latest at \d\d:42:31$/,
    );
  });

  test('the endpoint chosen: its own refusals only; one with none shows no row', async () => {
    const stores = show();
    act(() => stores.refusals.getState().counted(COUNTS));
    await act(() => stores.deliveries.getState().setFilter({ endpointId: 'ep_legacy' }));
    expect(lines()).toEqual([
      '5 refused because the endpoint is switched off in the last minute' + 'Switch it on in Endpoint settings',
    ]);
    await act(() => stores.deliveries.getState().setFilter({ endpointId: 'ep_quiet' }));
    expect(screen.queryByRole('region', { name: 'Refused deliveries' })).toBeNull();
  });

  test('counts that fell to zero, or an engine stopped, show no row', () => {
    const stores = show();
    act(() => stores.refusals.getState().counted(COUNTS));
    act(() => stores.live.setState({ state: 'stopped' }));
    expect(screen.queryByRole('region', { name: 'Refused deliveries' })).toBeNull();
    act(() => stores.live.setState({ state: 'live' }));
    expect(lines()).toHaveLength(2);
    act(() => stores.refusals.getState().counted({ ...COUNTS, total: 0, lastAt: null, reasons: [], endpoints: [] }));
    expect(screen.queryByRole('region', { name: 'Refused deliveries' })).toBeNull();
  });
});
