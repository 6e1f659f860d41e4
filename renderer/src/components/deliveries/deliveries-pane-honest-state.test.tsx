import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { browserClient, type Endpoint, type LogSummary } from '../../api/client.ts';
import { ALL_DELIVERIES } from '../../lib/delivery-filter.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { DeliveriesPane } from './deliveries-pane.tsx';

const log = (n: number, endpointId: string): LogSummary =>
  ({
    id: `log_${String(n).padStart(3, '0')}`,
    endpointId,
    method: 'POST',
    path: `/order/${n}`,
    query: {},
    size: 10,
    receivedAt: '2025-03-01T12:00:00.000Z',
    status: 'success',
    verification: { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null },
    pinned: false,
    eventType: null,
  }) as LogSummary;

const endpoint = (id: string, name: string): Endpoint => ({ id, name }) as Endpoint;

/** jsdom lays nothing out: the list is given a 400 px high box (rows keep the pane's 52 px estimate). */
function giveLayout(): void {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(400);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(600);
}

function showPane(logs: LogSummary[], endpointId: string | null = null) {
  const stores = createAppStores(browserClient('http://127.0.0.1:9'), memoryStorage());
  stores.endpoints.setState({
    endpoints: [endpoint('ep_a', 'Stripe payments'), endpoint('ep_b', 'GitHub')],
    loaded: true,
  });
  stores.deliveries.setState({ logs, total: logs.length, hasMore: false, filter: { ...ALL_DELIVERIES, endpointId } });
  render(
    <StoresContext.Provider value={stores}>
      <DeliveriesPane />
    </StoresContext.Provider>,
  );
  return stores;
}

const rowEndpoints = () =>
  within(screen.getByRole('list', { name: 'Deliveries' }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.row-endpoint')?.textContent ?? null);

describe('the deliveries pane, saying what it shows', () => {
  beforeEach(giveLayout);
  afterEach(cleanup);

  test('in All endpoints each row names its endpoint, a deleted one as such; with one endpoint chosen, none does', () => {
    showPane([log(3, 'ep_a'), log(2, 'ep_gone'), log(1, 'ep_b')]);
    expect(rowEndpoints()).toEqual(['Stripe payments', 'Deleted endpoint', 'GitHub']);
    expect(screen.getByText('Stripe payments').getAttribute('title')).toBe('Endpoint: Stripe payments');
    cleanup();

    showPane([log(3, 'ep_a'), log(1, 'ep_a')], 'ep_a');
    expect(rowEndpoints()).toEqual([null, null]);
  });

  test('scrolled down, arrivals show "N new" over the list; it scrolls to them, and goes once back at the top', () => {
    const stores = showPane(Array.from({ length: 40 }, (_, i) => log(40 - i, 'ep_a')));
    // The user scrolled down to read: following is off (the pane's own scroll handler turns it off).
    const scroller = document.querySelector<HTMLElement>('.scroller')!;
    scroller.scrollTop = 520;
    fireEvent.scroll(scroller);
    expect(stores.selection.getState().following).toBe(false);
    expect(screen.queryByRole('button', { name: /new deliver/ })).toBeNull();

    act(() => {
      for (const n of [41, 42, 43]) stores.deliveries.getState().received(log(n, 'ep_a'));
    });
    // The rows being read stay in place (three rows further down), and the bar counts what came above them.
    expect(scroller.scrollTop).toBe(520 + 3 * 52);
    const bar = screen.getByRole('button', { name: '3 new deliveries' });

    // Scrolling up: the three are the top rows, all hidden while more than three rows are above the view...
    scroller.scrollTop = 4 * 52;
    fireEvent.scroll(scroller);
    expect(bar.textContent).toBe('↑ 3 new deliveries');
    // ...and with two rows above it, the third newest is in view.
    scroller.scrollTop = 2 * 52;
    fireEvent.scroll(scroller);
    expect(bar.textContent).toBe('↑ 2 new deliveries');

    fireEvent.click(bar);
    expect(scroller.scrollTop).toBe(0);
    expect(document.activeElement).toBe(scroller);
    fireEvent.scroll(scroller);
    expect(screen.queryByRole('button', { name: /new deliver/ })).toBeNull();
    expect(stores.selection.getState().following).toBe(false);
  });

  test('at the top, arrivals are in view: no bar', () => {
    const stores = showPane([log(2, 'ep_a'), log(1, 'ep_a')]);
    act(() => {
      stores.selection.setState({ following: false });
      stores.deliveries.getState().received(log(3, 'ep_a'));
    });
    expect(screen.getByRole('list', { name: 'Deliveries' }).textContent).toContain('/order/3');
    expect(screen.queryByRole('button', { name: /new deliver/ })).toBeNull();
  });
});
