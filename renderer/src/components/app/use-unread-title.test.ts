import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { browserClient, type LogSummary } from '../../api/client.ts';
import { createAppStores } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { useUnreadTitle } from './use-unread-title.ts';

const setVisibility = (state: 'hidden' | 'visible'): void => {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
};
const log = (id: string): LogSummary => ({ id, endpointId: 'ep_1', status: 'success' }) as LogSummary;

describe('the unread count in the title', () => {
  afterEach(() => setVisibility('visible'));

  test('counts live deliveries while the window is hidden, and clears when it is seen', () => {
    // Nothing is fetched: a live delivery matching the (default) filter is added in place.
    const stores = createAppStores(browserClient('http://127.0.0.1:9'), memoryStorage());
    renderHook(() => useUnreadTitle(stores));
    document.title = 'Hookscope';
    stores.deliveries.getState().received(log('log_seen'));
    expect(document.title).toBe('Hookscope');
    setVisibility('hidden');
    stores.deliveries.getState().received(log('log_1'));
    stores.deliveries.getState().received(log('log_2'));
    stores.deliveries.getState().received(log('log_2'));
    expect(document.title).toBe('(2) Hookscope');
    setVisibility('visible');
    expect(document.title).toBe('Hookscope');
  });
});
