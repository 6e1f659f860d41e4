import assert from 'node:assert/strict';
import { secureWebPreferences } from '../../../electron/web-preferences.ts';
import { test } from '../../helpers/node-test.ts';

test('the window runs sandboxed and isolated, without Node, with the one preload given, with the same-origin policy: every option exactly', () => {
  assert.deepEqual(secureWebPreferences('/app/dist/electron/preload.cjs'), {
    preload: '/app/dist/electron/preload.cjs',
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
  });
});
