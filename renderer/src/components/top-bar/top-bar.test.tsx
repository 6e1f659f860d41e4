import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { createApiClient } from '../../../../server/api-client/api-client.ts';
import type { TunnelStatus } from '../../api/client.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage, startTestEngine, type ComponentEngine } from '../../test-engine.ts';
import { ENGINE_STOPPED_WHY } from '../shared/engine-gate.ts';
import { TopBar } from './top-bar.tsx';

afterEach(cleanup);

const DEGRADED: TunnelStatus = {
  state: 'degraded',
  enabled: true,
  url: 'https://quiet-fox.loca.lt',
  since: '2026-01-01T10:00:00.000Z',
  lastError: "The public URL https://quiet-fox.loca.lt answered HTTP 404 instead of this engine's health check.",
  attempts: 1,
  host: 'https://localtunnel.me',
  subdomain: 'quiet-fox',
  lastDeliveryAt: null,
  checkedAt: '2026-01-01T10:00:30.000Z',
  roundTripMs: null,
  retryAt: null,
  browserNotice: null,
};

test('a degraded tunnel: the pill says it is failing, the line under it what that means, the reason beside it, and the public URL stays', () => {
  // The top bar only reads the stores here; nothing is fetched.
  const client = createApiClient({ baseUrl: 'http://engine.test', fetch: () => Promise.reject(new Error('offline')) });
  const stores = createAppStores(client, memoryStorage());
  act(() => stores.tunnel.getState().changed(DEGRADED));
  render(
    <StoresContext.Provider value={stores}>
      <TopBar />
    </StoresContext.Provider>,
  );
  expect(screen.getByText('Tunnel failing').className).toBe('pill tunnel-degraded');
  expect(screen.getByText(DEGRADED.lastError!)).toBeTruthy();
  expect(screen.getByText('Tunnel failing: senders may get errors; checking again')).toBeTruthy();
  expect(screen.getByText('https://quiet-fox.loca.lt')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Copy public URL' })).toBeTruthy();
});

test('the tunnel line under the bar counts down to the next attempt while the tunnel is down, second by second', () => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  try {
    vi.setSystemTime(Date.parse('2026-01-01T10:00:00.000Z'));
    const client = createApiClient({
      baseUrl: 'http://engine.test',
      fetch: () => Promise.reject(new Error('offline')),
    });
    const stores = createAppStores(client, memoryStorage());
    const lastError = 'The tunnel server did not answer within 20 s.';
    act(() =>
      stores.tunnel.getState().changed({
        ...DEGRADED,
        state: 'offline',
        url: null,
        lastError,
        retryAt: '2026-01-01T10:00:12.000Z',
      }),
    );
    render(
      <StoresContext.Provider value={stores}>
        <TopBar />
      </StoresContext.Provider>,
    );
    const meaning = () => screen.getByText(/^Internet senders cannot reach/).textContent;
    expect(meaning()).toBe('Internet senders cannot reach the public URL now; retrying in 12 s');
    // The engine's reason beside it, whole in its tooltip.
    expect(screen.getByText(lastError).title).toBe(lastError);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(meaning()).toBe('Internet senders cannot reach the public URL now; retrying in 11 s');
    act(() => {
      vi.advanceTimersByTime(11_000);
    });
    expect(meaning()).toBe('Internet senders cannot reach the public URL now; retrying now');
  } finally {
    vi.useRealTimers();
  }
});

test('the engine stopped: the pill says it, the public URL is marked not receiving, the line says what it means, the switches wait', () => {
  const client = createApiClient({ baseUrl: 'http://engine.test', fetch: () => Promise.reject(new Error('offline')) });
  const stores = createAppStores(client, memoryStorage());
  act(() => {
    stores.tunnel.getState().changed({ ...DEGRADED, state: 'online', lastError: null });
    stores.session.setState({ status: 'signed-in', owner: true, account: { id: 'acc_1', name: 'local' } });
  });
  render(
    <StoresContext.Provider value={stores}>
      <TopBar />
    </StoresContext.Provider>,
  );
  const url = screen.getByText('https://quiet-fox.loca.lt');
  expect(url.className).toBe('public-url');
  expect(screen.queryByText('not receiving')).toBeNull();

  act(() => stores.live.setState({ state: 'stopped' }));
  expect(screen.getByText('Engine stopped').className).toBe('pill live-stopped');
  expect(url.className).toBe('public-url not-receiving');
  expect(screen.getByText('not receiving')).toBeInTheDocument();
  expect(screen.getByText('Engine stopped: no sender reaches the public or the local URLs')).toBeInTheDocument();
  for (const control of [
    screen.getByRole('switch', { name: 'Tunnel' }),
    screen.getByRole('button', { name: 'Sign out' }),
  ]) {
    expect(control).toBeDisabled();
    expect(control.title).toBe(ENGINE_STOPPED_WHY);
  }
  // Copying the URL needs no engine.
  expect(screen.getByRole('button', { name: 'Copy public URL' })).toBeEnabled();

  act(() => stores.live.setState({ state: 'reconnecting' }));
  expect(screen.getByText('Reconnecting').className).toBe('pill live-reconnecting');
  expect(url.className).toBe('public-url');
  expect(screen.getByRole('switch', { name: 'Tunnel' })).toBeEnabled();
  expect(screen.getByText(/^Public URL answering/)).toBeInTheDocument();
});

describe('against a real engine', () => {
  let running: ComponentEngine;

  beforeAll(async () => {
    running = await startTestEngine('hookscope-top-bar-');
  });
  afterAll(() => running?.stop());

  test('while online the line says how long ago the public URL answered, and reads the status again every 30 s', async () => {
    const { client } = running;
    const stores = createAppStores(client, memoryStorage());
    // Only the intervals are faked: the engine in this process keeps its own timers and clock.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      act(() =>
        stores.tunnel.getState().changed({
          ...DEGRADED,
          state: 'online',
          lastError: null,
          checkedAt: new Date(Date.now() - 20_000).toISOString(),
        }),
      );
      render(
        <StoresContext.Provider value={stores}>
          <TopBar />
        </StoresContext.Provider>,
      );
      expect(screen.getByText(/^Public URL answering/).textContent).toBe('Public URL answering (checked 20 s ago)');
      // checkedAt is not pushed: after 30 s the line asks the engine, whose tunnel is in fact off.
      act(() => {
        vi.advanceTimersByTime(30_000);
      });
      await waitFor(() =>
        expect(screen.getByText('Tunnel off: internet senders cannot reach local URLs')).toBeInTheDocument(),
      );
      expect(stores.notices.getState().notices).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
