import type { WebPreferences } from 'electron';

/**
 * The renderer's web preferences: the page gets no Node.js, runs in Chromium's
 * sandbox in its own JavaScript world apart from the preload, and keeps the
 * same-origin policy. Each is Electron's default today, and each is still
 * written out, so a changed default or a flipped value fails a test
 * (tests/unit/electron/web-preferences.test.ts) instead of passing silently.
 */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
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
  };
}
