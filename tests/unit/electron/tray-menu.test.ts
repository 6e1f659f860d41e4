import assert from 'node:assert/strict';
import type { MenuItemConstructorOptions } from 'electron';
import { trayMenuTemplate, trayTooltip, tunnelLine, type TrayTunnel } from '../../../electron/tray-menu.ts';
import { describe, test } from '../../helpers/node-test.ts';

const online: TrayTunnel = { state: 'online', url: 'https://quiet-fox.loca.lt', lastError: null };
const offline: TrayTunnel = { state: 'offline', url: null, lastError: 'The tunnel server did not answer.' };

/** The template with its click handlers recorded instead of run. */
function menu(tunnel: TrayTunnel, notify = true) {
  const calls: string[] = [];
  const items = trayMenuTemplate(
    tunnel,
    { notifyOnFailedDelivery: notify },
    {
      copyPublicUrl: (url) => calls.push(`copy ${url}`),
      open: () => calls.push('open'),
      signIn: () => calls.push('sign in'),
      setNotify: (on) => calls.push(`notify ${on}`),
      quit: () => calls.push('quit'),
    },
  );
  const shape = items.map(({ click: _click, ...rest }) => rest);
  const click = (label: string): void => {
    const item = items.find((i) => i.label === label);
    assert.ok(item?.click, label);
    (item.click as () => void)();
  };
  return { items, shape, calls, click };
}

describe('the tray menu', () => {
  test('online: the state with the public URL, which can be copied', () => {
    const m = menu(online);
    assert.deepEqual(m.shape, [
      { label: 'Tunnel online: https://quiet-fox.loca.lt', enabled: false },
      { label: 'Copy public URL', enabled: true },
      { type: 'separator' },
      { label: 'Open Hookscope' },
      { label: 'Sign in again' },
      { label: 'Notify on failed deliveries', type: 'checkbox', checked: true },
      { type: 'separator' },
      { label: 'Quit' },
    ] satisfies MenuItemConstructorOptions[]);
    m.click('Copy public URL');
    m.click('Open Hookscope');
    m.click('Sign in again');
    m.click('Notify on failed deliveries');
    m.click('Quit');
    assert.deepEqual(m.calls, ['copy https://quiet-fox.loca.lt', 'open', 'sign in', 'notify false', 'quit']);
  });

  test('without a public URL, "Copy public URL" is disabled and copies nothing', () => {
    for (const tunnel of [offline, { state: 'disabled', url: null, lastError: null } satisfies TrayTunnel]) {
      const m = menu(tunnel, false);
      assert.deepEqual(m.shape[1], { label: 'Copy public URL', enabled: false });
      assert.deepEqual(m.shape[5], { label: 'Notify on failed deliveries', type: 'checkbox', checked: false });
      m.click('Copy public URL');
      m.click('Notify on failed deliveries');
      assert.deepEqual(m.calls, ['notify true']);
    }
  });

  test("each state in the top bar's words; the tooltip says why the tunnel is down", () => {
    assert.equal(tunnelLine({ state: 'disabled', url: null, lastError: null }), 'Tunnel off');
    assert.equal(tunnelLine({ state: 'connecting', url: null, lastError: null }), 'Tunnel connecting');
    assert.equal(tunnelLine({ state: 'error', url: null, lastError: 'refused' }), 'Tunnel error');
    assert.equal(tunnelLine(offline), 'Tunnel offline');
    assert.equal(trayTooltip(online), 'Hookscope: Tunnel online: https://quiet-fox.loca.lt');
    assert.equal(trayTooltip(offline), 'Hookscope: Tunnel offline (The tunnel server did not answer.)');
    assert.equal(trayTooltip({ state: 'connecting', url: null, lastError: 'old' }), 'Hookscope: Tunnel connecting');
  });

  test('degraded: the URL is still the public one (shown and copyable), and the tooltip says what failed', () => {
    const degraded: TrayTunnel = {
      state: 'degraded',
      url: 'https://quiet-fox.loca.lt',
      lastError: 'The public URL https://quiet-fox.loca.lt did not answer.',
    };
    assert.equal(tunnelLine(degraded), 'Tunnel failing: https://quiet-fox.loca.lt');
    assert.equal(
      trayTooltip(degraded),
      'Hookscope: Tunnel failing: https://quiet-fox.loca.lt (The public URL https://quiet-fox.loca.lt did not answer.)',
    );
    const m = menu(degraded);
    assert.deepEqual(m.shape[1], { label: 'Copy public URL', enabled: true });
    m.click('Copy public URL');
    assert.deepEqual(m.calls, ['copy https://quiet-fox.loca.lt']);
  });
});
