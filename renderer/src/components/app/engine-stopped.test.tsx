import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { ApiClient } from '../../../../server/api-client/api-client.ts';
import type { Endpoint } from '../../api/client.ts';
import { createAppStores, StoresContext, type AppStores } from '../../stores/app-stores.ts';
import type { LiveState } from '../../stores/live-store.ts';
import { memoryStorage, startTestEngine, type ComponentEngine } from '../../test-engine.ts';
import { DeliveriesEmpty } from '../deliveries/onboarding.tsx';
import { SelectionBar } from '../deliveries/selection-bar.tsx';
import { DetailActions } from '../detail/detail-actions.tsx';
import { ExplainPanel } from '../detail/explain/explain-panel.tsx';
import { ReplayPanel } from '../detail/replay/replay-panel.tsx';
import { SharePanel } from '../detail/share/share-panel.tsx';
import { EndpointsPane } from '../endpoints/endpoints-pane.tsx';
import { SettingsScreen } from '../settings/settings-screen.tsx';
import { ENGINE_STOPPED_WHY } from '../shared/engine-gate.ts';
import { EngineStoppedAlert } from './engine-stopped-alert.tsx';

const SENTENCE = 'The engine stopped; nothing is being received';

/**
 * The inspector while the engine is stopped, on stores filled by a real engine (the
 * live store's verdict is set by hand here; stores/live-store.test.ts reaches it with
 * a real engine stopped and started again).
 */
describe('while the engine is stopped', () => {
  let running: ComponentEngine;
  let client: ApiClient;
  let stores: AppStores;
  let logIds: string[];

  beforeAll(async () => {
    running = await startTestEngine('hookscope-stopped-');
    client = running.client;
    const endpoint = await client.post('/api/endpoints', {
      body: { name: 'Orders', validationType: 'hmac_sha256', webhookSecret: 'stopped-test-secret' },
    });
    logIds = [];
    // Unsigned: failed verifications, which the engine can explain.
    for (const n of [1, 2]) {
      const res = await fetch(`${running.engine.receiverUrl}/webhook/${endpoint.id}`, {
        method: 'POST',
        body: `{"n":${n}}`,
      });
      logIds.push(((await res.json()) as { error: { details: { logId: string } } }).error.details.logId);
    }
  });
  afterAll(() => running?.stop());
  afterEach(cleanup);

  const setLive = (state: LiveState): void => act(() => stores.live.setState({ state }));

  const showInspector = async (): Promise<void> => {
    stores = createAppStores(client, memoryStorage());
    await stores.endpoints.getState().load();
    await stores.deliveries.getState().setFilter({ endpointId: stores.endpoints.getState().endpoints[0]!.id });
    await stores.selection.getState().select(logIds[0]!);
    render(
      <StoresContext.Provider value={stores}>
        <EngineStoppedAlert />
        <EndpointsPane />
        <DetailActions detail={stores.selection.getState().detail!} />
        <SelectionBar checked={logIds} />
      </StoresContext.Provider>,
    );
  };

  /** Every control of the screen that calls the engine, found by its role and name where it sits. */
  const engineControls = (): HTMLElement[] => {
    const endpoints = within(screen.getByRole('navigation', { name: 'Endpoints' }));
    const actions = within(screen.getByRole('toolbar', { name: 'Delivery actions' }));
    const ticked = within(screen.getByRole('toolbar', { name: 'Selected deliveries' }));
    return [
      ...[
        'New endpoint',
        'Send test delivery',
        'Delete endpoint',
        'Save secret',
        'Regenerate secret',
        'Save response',
      ].map((name) => endpoints.getByRole('button', { name })),
      endpoints.getByRole('switch', { name: 'Active' }),
      ...['Replay', 'Edit and replay', 'Share', 'Explain', 'Copy as cURL', 'Export', 'Pin', 'Delete'].map((name) =>
        actions.getByRole('button', { name }),
      ),
      ...['Compare', 'Export', 'Delete'].map((name) => ticked.getByRole('button', { name })),
    ];
  };

  test('the alert says so and how to start it again, only once the drop is more than a blip; it goes when the engine is back', async () => {
    await showInspector();
    expect(screen.queryByRole('alert')).toBeNull();
    setLive('reconnecting');
    expect(screen.queryByRole('alert')).toBeNull();
    setLive('stopped');
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText(SENTENCE).tagName).toBe('STRONG');
    // jsdom's page is http://localhost:3000/: the engine comes back on that port.
    expect(alert.textContent).toBe(
      `${SENTENCE}Start it again with npx hookscope serve --api-port 3000 (or npm start) and the options used before; this page reconnects by itself.`,
    );
    setLive('refused');
    expect(screen.queryByRole('alert')).toBeNull();
    setLive('live');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('in the desktop app, it says to quit and reopen it (the app runs the engine itself)', async () => {
    vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) hookscope/0.1.0 Chrome/140.0.0.0 Electron/42.0.1 Safari/537.36',
    );
    await showInspector();
    setLive('stopped');
    expect(screen.getByRole('alert').textContent).toBe(
      `${SENTENCE}The desktop app runs the engine itself: quit Hookscope (from its tray or app menu) and open it again.`,
    );
  });

  test('every action that calls the engine is disabled, not hidden, saying why; the URL is marked; all back once live', async () => {
    await showInspector();
    const url = stores.endpoints.getState().endpoints[0]!.url;
    const urlBox = within(screen.getByRole('region', { name: 'Receiving URL' }));
    expect(engineControls().filter((c) => c.title === ENGINE_STOPPED_WHY)).toEqual([]);
    expect(urlBox.getByText(url).className).toBe('');
    expect(urlBox.getByText(/^Internet senders cannot reach this URL/)).toBeInTheDocument();

    setLive('stopped');
    for (const control of engineControls()) {
      expect(control, control.textContent ?? '').toBeDisabled();
      expect(control.title, control.textContent ?? '').toBe(ENGINE_STOPPED_WHY);
    }
    expect(urlBox.getByText(url).className).toBe('not-receiving');
    expect(urlBox.getByText('not receiving: the engine is stopped')).toBeInTheDocument();
    // Nothing reaches the URL from anywhere: the warning about internet senders (the tunnel is off) gives way.
    expect(urlBox.queryByText(/^Internet senders cannot reach this URL/)).toBeNull();
    // What needs no engine stays: copying the URL, clearing the ticks.
    expect(urlBox.getByRole('button', { name: 'Copy URL' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Clear selection' })).toBeEnabled();
    // The endpoint's Save is disabled for its own reason too (nothing changed): the engine's is the one said.
    expect(
      within(screen.getByRole('navigation', { name: 'Endpoints' })).getByRole('button', { name: 'Save' }).title,
    ).toBe(ENGINE_STOPPED_WHY);

    setLive('live');
    for (const control of engineControls()) {
      expect(control, control.textContent ?? '').toBeEnabled();
      expect(control.title, control.textContent ?? '').toBe('');
    }
    expect(urlBox.getByText(url).className).toBe('');
    expect(urlBox.queryByText('not receiving: the engine is stopped')).toBeNull();
    expect(
      within(screen.getByRole('navigation', { name: 'Endpoints' })).getByRole('button', { name: 'Save' }),
    ).toBeDisabled();
  });

  test("Settings' Save is disabled while stopped, the edit kept; enabled again once back", async () => {
    stores = createAppStores(client, memoryStorage());
    render(
      <StoresContext.Provider value={stores}>
        <SettingsScreen />
      </StoresContext.Provider>,
    );
    const rate = await screen.findByRole('textbox', { name: 'Rate limit (deliveries per second)' });
    fireEvent.change(rate, { target: { value: '250' } });
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeEnabled();
    setLive('stopped');
    expect(save).toBeDisabled();
    expect(save.title).toBe(ENGINE_STOPPED_WHY);
    expect(rate).toHaveValue('250');
    setLive('live');
    expect(save).toBeEnabled();
  });

  test("the open panels' Send, Create link, Revoke and Refresh wait for the engine too", async () => {
    stores = createAppStores(client, memoryStorage());
    await stores.selection.getState().select(logIds[0]!);
    render(
      <StoresContext.Provider value={stores}>
        <ReplayPanel detail={stores.selection.getState().detail!} edit={false} />
        <SharePanel logId={logIds[0]!} />
        <ExplainPanel logId={logIds[0]!} />
      </StoresContext.Provider>,
    );
    // The link made in the panel brings its Revoke.
    fireEvent.click(within(screen.getByRole('region', { name: 'Share' })).getByRole('button', { name: 'Create link' }));
    const revoke = await within(screen.getByRole('region', { name: 'Share' })).findByRole('button', { name: 'Revoke' });
    const refresh = await within(screen.getByRole('region', { name: 'Explanation' })).findByRole('button', {
      name: 'Refresh',
    });
    await vi.waitFor(() => expect(refresh).toBeEnabled()); // the analysis is in
    const controls = [
      within(screen.getByRole('region', { name: 'Replay' })).getByRole('button', { name: 'Send' }),
      within(screen.getByRole('region', { name: 'Share' })).getByRole('button', { name: 'Create link' }),
      revoke,
      refresh,
    ];
    setLive('stopped');
    for (const control of controls) {
      expect(control, control.textContent ?? '').toBeDisabled();
      expect(control.title, control.textContent ?? '').toBe(ENGINE_STOPPED_WHY);
    }
    setLive('live');
    for (const control of controls) expect(control, control.textContent ?? '').toBeEnabled();
  });

  test('the first steps: Create endpoint, the URL to send to (marked) and Send test delivery', () => {
    stores = createAppStores(client, memoryStorage());
    stores.endpoints.setState({ loaded: true, endpoints: [] });
    render(
      <StoresContext.Provider value={stores}>
        <DeliveriesEmpty />
      </StoresContext.Provider>,
    );
    setLive('stopped');
    const create = screen.getByRole('button', { name: 'Create endpoint' });
    expect(create).toBeDisabled();
    expect(create.title).toBe(ENGINE_STOPPED_WHY);
    cleanup();

    const endpoint = {
      id: 'ep_first',
      name: 'First',
      url: 'http://127.0.0.1:4681/webhook/ep_first',
      isActive: true,
      validationType: 'none',
    } as Endpoint;
    stores.endpoints.setState({ endpoints: [endpoint] });
    stores.deliveries.setState({ filter: { ...stores.deliveries.getState().filter, endpointId: 'ep_first' } });
    render(
      <StoresContext.Provider value={stores}>
        <DeliveriesEmpty />
      </StoresContext.Provider>,
    );
    const send = screen.getByRole('button', { name: 'Send test delivery' });
    expect(send).toBeDisabled();
    expect(send.title).toBe(ENGINE_STOPPED_WHY);
    expect(screen.getByText(endpoint.url).className).toBe('onboarding-code not-receiving');
    expect(screen.getByText('not receiving: the engine is stopped')).toBeInTheDocument();
    setLive('live');
    expect(send).toBeEnabled();
    expect(screen.getByText(endpoint.url).className).toBe('onboarding-code');
  });

  test('Settings opened while stopped says so and asks nothing (no error notice); read once the engine is back', async () => {
    stores = createAppStores(client, memoryStorage());
    const get = vi.spyOn(client, 'get');
    setLive('stopped');
    try {
      render(
        <StoresContext.Provider value={stores}>
          <SettingsScreen />
        </StoresContext.Provider>,
      );
      expect(screen.getByText('The engine is stopped: the settings are read once it is back.')).toBeInTheDocument();
      expect(get.mock.calls.filter(([path]) => path === '/api/settings')).toEqual([]);
      expect(stores.notices.getState().notices).toEqual([]);
      setLive('live');
      expect(await screen.findByRole('textbox', { name: 'Rate limit (deliveries per second)' })).toBeInTheDocument();
      expect(get.mock.calls.filter(([path]) => path === '/api/settings')).toHaveLength(1);
    } finally {
      get.mockRestore();
    }
  });
});
