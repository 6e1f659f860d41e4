import assert from 'node:assert/strict';
import {
  denyDevices,
  permissionAllowed,
  permissionCheckHandler,
  permissionRequestHandler,
} from '../../../electron/permissions.ts';
import { describe, test } from '../../helpers/node-test.ts';

const ORIGIN = 'http://127.0.0.1:4680';
// Every permission name Electron 45's types list for these handlers.
const ALL = [
  'ar', 'automatic-fullscreen', 'background-fetch', 'background-sync', 'captured-surface-control', 'clipboard-read',
  'clipboard-sanitized-write', 'deprecated-sync-clipboard-read', 'display-capture', 'fileSystem', 'fullscreen',
  'geolocation', 'geolocation-approximate', 'hand-tracking', 'hid', 'idle-detection', 'keyboardLock', 'local-fonts',
  'local-network', 'local-network-access', 'loopback-network', 'media', 'mediaKeySystem', 'midi', 'midiSysex', 'nfc',
  'notifications', 'openExternal', 'payment-handler', 'periodic-background-sync', 'persistent-storage',
  'pointerLock', 'screen-wake-lock', 'sensors', 'serial', 'smart-card', 'speaker-selection', 'storage-access',
  'system-wake-lock', 'top-level-storage-access', 'usb', 'vr', 'web-app-installation', 'web-printing',
  'window-management', 'unknown',
]; // prettier-ignore

const granted = (permission: string, url: string | undefined): boolean => {
  let answer: boolean | null = null;
  permissionRequestHandler(() => ORIGIN)(
    null,
    permission,
    (g) => (answer = g),
    url === undefined ? {} : { requestingUrl: url },
  );
  assert.notEqual(answer, null, 'the callback was called');
  return answer!;
};

describe('permission requests and checks', () => {
  test('every permission is denied to the app, except writing text to the clipboard', () => {
    const allowed = ALL.filter((p) => granted(p, `${ORIGIN}/#/logs/log_1`));
    assert.deepEqual(allowed, ['clipboard-sanitized-write']);
    const checked = ALL.filter((p) => permissionCheckHandler(() => ORIGIN)(null, p, ORIGIN));
    assert.deepEqual(checked, ['clipboard-sanitized-write']);
  });

  test('any other origin, or none, is denied everything, the clipboard too', () => {
    for (const url of ['https://example.com/', 'http://127.0.0.1:4681/', 'file:///x', 'garbage', undefined]) {
      assert.deepEqual(
        ALL.filter((p) => granted(p, url)),
        [],
        String(url),
      );
      assert.equal(permissionAllowed('clipboard-sanitized-write', url, ORIGIN), false, String(url));
    }
    assert.equal(permissionCheckHandler(() => ORIGIN)(null, 'clipboard-sanitized-write', 'https://example.com'), false);
  });

  test("the handlers follow the app's origin at each call (the team server shown, then this computer again)", () => {
    let origin = ORIGIN;
    const check = permissionCheckHandler(() => origin);
    let answer: boolean | null = null;
    const request = permissionRequestHandler(() => origin);
    origin = 'https://hooks.example.com';
    request(null, 'clipboard-sanitized-write', (g) => (answer = g), { requestingUrl: 'https://hooks.example.com/#/' });
    assert.equal(answer, true);
    assert.equal(check(null, 'clipboard-sanitized-write', 'https://hooks.example.com'), true);
    assert.equal(check(null, 'clipboard-sanitized-write', ORIGIN), false);
    origin = ORIGIN;
    assert.equal(check(null, 'clipboard-sanitized-write', 'https://hooks.example.com'), false);
    assert.equal(check(null, 'clipboard-sanitized-write', ORIGIN), true);
  });

  test('devices (HID, serial, USB) are never granted', () => {
    assert.equal(denyDevices(), false);
  });
});
