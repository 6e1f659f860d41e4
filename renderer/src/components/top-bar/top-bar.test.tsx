import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { createApiClient } from '../../../../server/api-client/api-client.ts';
import type { TunnelStatus } from '../../api/client.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { TopBar } from './top-bar.tsx';

afterEach(cleanup);

const memory = (): Pick<Storage, 'getItem' | 'setItem'> => {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) };
};

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

test('a degraded tunnel: the pill says it is failing, with the reason beside it, and the public URL stays', () => {
  // The top bar only reads the stores here; nothing is fetched.
  const client = createApiClient({ baseUrl: 'http://engine.test', fetch: () => Promise.reject(new Error('offline')) });
  const stores = createAppStores(client, memory());
  act(() => stores.tunnel.getState().changed(DEGRADED));
  render(
    <StoresContext.Provider value={stores}>
      <TopBar />
    </StoresContext.Provider>,
  );
  expect(screen.getByText('Tunnel failing').className).toBe('pill tunnel-degraded');
  expect(screen.getByText(DEGRADED.lastError!)).toBeTruthy();
  expect(screen.getByText('https://quiet-fox.loca.lt')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Copy public URL' })).toBeTruthy();
});
