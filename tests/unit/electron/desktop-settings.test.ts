import assert from 'node:assert/strict';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DESKTOP_SETTINGS_FILE,
  parseDesktopSettings,
  readDesktopSettings,
  writeDesktopSettings,
} from '../../../electron/desktop-settings.ts';
import { desktopEngineConfig, desktopTunnelEnabled } from '../../../electron/engine-config.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const newDir = tempDirs('hookscope-desktop-settings-');

describe("the desktop app's settings", () => {
  test('failed-delivery notifications are on unless switched off', async () => {
    assert.deepEqual(parseDesktopSettings(undefined), { notifyOnFailedDelivery: true, teamServer: null, forwards: {} });
    assert.deepEqual(parseDesktopSettings({ notifyOnFailedDelivery: 'no' }), {
      notifyOnFailedDelivery: true,
      teamServer: null,
      forwards: {},
    });
    assert.deepEqual(parseDesktopSettings({ notifyOnFailedDelivery: false }), {
      notifyOnFailedDelivery: false,
      teamServer: null,
      forwards: {},
    });
    const dir = await newDir();
    assert.deepEqual(await readDesktopSettings(dir), { notifyOnFailedDelivery: true, teamServer: null, forwards: {} });
    await writeDesktopSettings(dir, { notifyOnFailedDelivery: false, teamServer: null, forwards: {} });
    assert.deepEqual(await readDesktopSettings(dir), { notifyOnFailedDelivery: false, teamServer: null, forwards: {} });
    if (process.platform !== 'win32') assert.equal((await stat(join(dir, DESKTOP_SETTINGS_FILE))).mode & 0o777, 0o600);
    await writeFile(join(dir, DESKTOP_SETTINGS_FILE), 'not json');
    assert.deepEqual(await readDesktopSettings(dir), { notifyOnFailedDelivery: true, teamServer: null, forwards: {} });
  });

  test('the team server shown is kept, normalised; a missing, malformed or refused one means "This computer"', async () => {
    const team = (teamServer: unknown): unknown => parseDesktopSettings({ teamServer }).teamServer;
    assert.deepEqual(team({ url: 'https://hooks.example.com/' }), { url: 'https://hooks.example.com' });
    assert.deepEqual(team({ url: 'http://127.0.0.1:4680' }), { url: 'http://127.0.0.1:4680' });
    for (const refused of [null, 'https://hooks.example.com', { url: 7 }, { url: 'http://hooks.example.com' }, {}])
      assert.equal(team(refused), null, JSON.stringify(refused));
    const dir = await newDir();
    await writeDesktopSettings(dir, {
      notifyOnFailedDelivery: true,
      teamServer: { url: 'https://hooks.example.com' },
      forwards: {},
    });
    assert.deepEqual(await readDesktopSettings(dir), {
      notifyOnFailedDelivery: true,
      teamServer: { url: 'https://hooks.example.com' },
      forwards: {},
    });
  });

  test('forwards from this computer are kept per team server; a malformed choice or server is left out', async () => {
    const good = { endpointId: 'ep_abc123', targetUrl: 'http://localhost:3000/hooks', on: true };
    const forwards = (raw: unknown): unknown => parseDesktopSettings({ forwards: raw }).forwards;
    assert.deepEqual(
      forwards({
        'https://hooks.example.com': [
          good,
          { endpointId: 'ep_off', targetUrl: 'http://127.0.0.1:4000', on: false },
          // Each refused: a target off this computer, an id of no endpoint, no on/off, not an object.
          { endpointId: 'ep_lan', targetUrl: 'http://10.0.0.5/hooks', on: true },
          { endpointId: 'EP 1', targetUrl: 'http://localhost:3000', on: true },
          { endpointId: 'ep_x', targetUrl: 'http://localhost:3000' },
          'ep_y',
        ],
        // A server the team server check refuses, one not in its normal form, choices that are not a list.
        'http://hooks.example.com': [good],
        'https://hooks.example.com/': [good],
        'https://other.example.com': 'on',
      }),
      {
        'https://hooks.example.com': [good, { endpointId: 'ep_off', targetUrl: 'http://127.0.0.1:4000/', on: false }],
      },
    );
    for (const raw of [null, 'x', [good], 7]) assert.deepEqual(forwards(raw), {}, JSON.stringify(raw));
    const dir = await newDir();
    const settings = {
      notifyOnFailedDelivery: true,
      teamServer: null,
      forwards: { 'https://hooks.example.com': [good] },
    };
    await writeDesktopSettings(dir, settings);
    assert.deepEqual(await readDesktopSettings(dir), settings);
  });

  test("the tunnel is on in the desktop app unless config.json's tunnel.enabled says otherwise", () => {
    assert.equal(desktopTunnelEnabled(undefined), true);
    assert.equal(desktopTunnelEnabled({}), true);
    assert.equal(desktopTunnelEnabled({ tunnel: { host: 'https://lt.example' } }), true);
    assert.equal(desktopTunnelEnabled({ tunnel: { enabled: false } }), false);
    assert.equal(desktopTunnelEnabled({ tunnel: { enabled: true } }), true);
  });

  test("the engine's configuration: serve's data directory and environment, the desktop's tunnel default", async () => {
    const dir = await newDir();
    const env = { HOOKSCOPE_DATA_DIR: dir, HOOKSCOPE_API_PORT: '0', HOOKSCOPE_RECEIVER_PORT: '0' };
    const config = await desktopEngineConfig(env);
    assert.equal(config.dataDir, dir);
    assert.equal(config.apiPort, 0);
    assert.equal(config.receiverPort, 0);
    assert.equal(config.tunnel.enabled, true);
    await writeFile(join(dir, 'config.json'), JSON.stringify({ tunnel: { enabled: false }, apiPort: 5000 }));
    const off = await desktopEngineConfig({ HOOKSCOPE_DATA_DIR: dir });
    assert.equal(off.tunnel.enabled, false);
    assert.equal(off.apiPort, 5000);
  });
});
