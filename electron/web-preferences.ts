import type { WebPreferences } from 'electron';

/**
 * The renderer's web preferences: the page gets no Node.js, runs in Chromium's
 * sandbox in its own JavaScript world, and keeps the same-origin policy. The UI
 * talks to the engine over HTTP at its own origin, like in a browser; the one
 * preload (`preload`, the compiled electron/preload.cts) adds only
 * `window.hookscopeDesktop`, the engine switch, through contextBridge. Each value is
 * Electron's default today, and each is still written out, so a changed default
 * or a flipped value fails a test (tests/unit/electron/web-preferences.test.ts)
 * instead of passing silently.
 */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
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
