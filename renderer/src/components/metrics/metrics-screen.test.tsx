import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createApiClient } from '../../../../server/api-client/api-client.ts';
import type { MetricsReport } from '../../lib/metrics-view.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { ENGINE_STOPPED_WHY } from '../shared/engine-gate.ts';
import { MetricsReplays } from './metrics-replays.tsx';
import { MetricsScreen } from './metrics-screen.tsx';

// jsdom has no canvas: the charts are uPlot's to draw (seen in the e2e test); here, their text.
vi.mock('./uplot-chart.tsx', () => ({ UplotChart: () => <div data-testid="chart" /> }));

function report(window: MetricsReport['window']): MetricsReport {
  return {
    window,
    from: '2026-11-23T13:00:00.000Z',
    to: '2026-11-24T13:00:00.000Z',
    bucketSeconds: 3600,
    totals: { received: 7, success: 3, failed: 3, rejected: 1 },
    successRate: 3 / 7,
    endpoints: [
      {
        endpointId: 'ep_orders',
        name: 'Orders',
        received: 6,
        success: 3,
        failed: 3,
        rejected: 0,
        successRate: 0.5,
        lastReceivedAt: null,
      },
      {
        endpointId: 'ep_idle',
        name: 'Idle',
        received: 0,
        success: 0,
        failed: 0,
        rejected: 0,
        successRate: null,
        lastReceivedAt: null,
      },
    ],
    series: [{ t: '2026-11-24T12:00:00.000Z', received: 7, success: 3, failed: 3, rejected: 1 }],
    verificationFailures: [{ reason: 'no_matching_signature', count: 3 }],
    rejections: [{ reason: 'endpoint_inactive', count: 1 }],
    replays: {
      total: 2,
      succeeded: 1,
      failed: 1,
      byTrigger: { manual: 2, forward: 0, client: 0 },
      p50Ms: 12,
      p95Ms: 1534,
    },
    payloadSizes: { count: 6, min: 10, max: 2048, avg: 400.5, p50: 20, p95: 2048 },
  };
}

function show() {
  const asked: string[] = [];
  const client = createApiClient({
    baseUrl: 'http://engine.test',
    fetch: async (req) => {
      const window = new URL(req.url).searchParams.get('window') as MetricsReport['window'];
      asked.push(window);
      return new Response(JSON.stringify({ success: true, data: report(window) }), {
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  const stores = createAppStores(client, memoryStorage());
  const view = render(
    <StoresContext.Provider value={stores}>
      <MetricsScreen />
    </StoresContext.Provider>,
  );
  return { stores, asked, view };
}

const cells = (row: HTMLElement): string[] => [...row.children].map((c) => c.textContent ?? '');

describe('MetricsScreen', () => {
  afterEach(cleanup);

  test('shows the totals, the failures and every endpoint of the report', async () => {
    const { asked } = show();
    await screen.findByText('7 deliveries in the last 24 hours: 3 succeeded, 3 failed, 1 rejected.', { exact: false });
    expect(asked).toEqual(['24h']);
    const totals = [...document.querySelectorAll('.totals > div')].map((d) => d.textContent);
    expect(totals).toEqual(['Received7', 'Success3', 'Failed3', 'Rejected1', 'Success rate42.9%']);

    const failures = screen.getByRole('table', { name: 'Failures by reason' });
    expect(within(failures).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['no_matching_signature', 'Failed verification', '3'],
      ['endpoint_inactive', 'Rejected (not stored)', '1'],
    ]);
    const endpoints = screen.getByRole('table', { name: 'Deliveries per endpoint' });
    expect(within(endpoints).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['Orders ep_orders', '6', '3', '3', '0', '50%', '—'],
      ['Idle ep_idle', '0', '0', '0', '0', '—', '—'],
    ]);
    expect(screen.getByText('2 (2 replayed, 0 forwarded)')).toBeInTheDocument();
    expect(screen.getByText('1.53 s')).toBeInTheDocument();
    expect(screen.getByText('401 B')).toBeInTheDocument(); // the average, rounded to a byte
    expect(screen.getAllByTestId('chart')).toHaveLength(2);
  });

  test('attempts the desktop app sent from this computer are named beside replays and forwards', () => {
    const base = report('24h');
    render(
      <MetricsReplays
        report={{ ...base, replays: { ...base.replays, total: 4, byTrigger: { manual: 1, forward: 1, client: 2 } } }}
      />,
    );
    expect(screen.getByText('4 (1 replayed, 1 forwarded, 2 from this computer)')).toBeInTheDocument();
  });

  test('another window is asked for and shown; Refresh asks again', async () => {
    const { asked } = show();
    await screen.findByText('7 deliveries in the last 24 hours', { exact: false });
    fireEvent.click(screen.getByRole('radio', { name: '7d' }));
    await screen.findByText('7 deliveries in the last 7 days', { exact: false });
    expect(screen.getByRole('radio', { name: '7d' })).toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await vi.waitFor(() => expect(asked).toEqual(['24h', '7d', '7d']));
  });

  test('closing the screen tells the store, so live events stop costing requests', async () => {
    const { stores, view } = show();
    await screen.findByText('7 deliveries in the last 24 hours', { exact: false });
    expect(stores.metrics.getState().open).toBe(true);
    view.unmount();
    expect(stores.metrics.getState().open).toBe(false);
  });

  test('the engine stopped: the last figures stay, marked stale with their time; Refresh and the windows wait for it', async () => {
    const { stores, asked } = show();
    await screen.findByText('7 deliveries in the last 24 hours', { exact: false });
    const loadedAt = stores.metrics.getState().loadedAt!;
    const hhmmss = new Date(loadedAt).toTimeString().slice(0, 8);
    expect(screen.getByText(`Updated ${hhmmss}`)).toBeInTheDocument();

    act(() => stores.live.setState({ state: 'stopped' }));
    expect(screen.getByText(`Last known figures, from ${hhmmss}; the engine is stopped`)).toBeInTheDocument();
    expect(screen.queryByText(/^Updated /)).toBeNull();
    const totals = [...document.querySelectorAll('.totals > div')].map((d) => d.textContent);
    expect(totals).toEqual(['Received7', 'Success3', 'Failed3', 'Rejected1', 'Success rate42.9%']);
    const refresh = screen.getByRole('button', { name: 'Refresh' });
    expect(refresh).toBeDisabled();
    expect(refresh.title).toBe(ENGINE_STOPPED_WHY);
    expect(screen.getByRole('radio', { name: '7d' })).toBeDisabled();

    act(() => stores.live.setState({ state: 'live' }));
    expect(screen.getByText(`Updated ${hhmmss}`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled();
    expect(asked).toEqual(['24h']);
  });

  test('opened while the engine is stopped, before any figures: it says so, asks nothing, and is not "No metrics yet"', () => {
    const client = createApiClient({
      baseUrl: 'http://engine.test',
      fetch: () => Promise.reject(new Error('offline')),
    });
    const stores = createAppStores(client, memoryStorage());
    stores.live.setState({ state: 'stopped' });
    render(
      <StoresContext.Provider value={stores}>
        <MetricsScreen />
      </StoresContext.Provider>,
    );
    expect(
      screen.getByText('No figures were read before the engine stopped; they load when it is back.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('No metrics yet.')).toBeNull();
    expect(stores.notices.getState().notices).toEqual([]);
  });
});
