/**
 * What the preload script (preload.cts) puts on the page's `window`, under
 * BRIDGE_KEY: that the UI runs in the desktop app, and on which OS. That is all
 * the renderer needs: it talks to the engine over HTTP at its own origin, like
 * in a browser, signed in by its session cookie, so no IPC channel, no Node API
 * and no token crosses the bridge. (The renderer may use it to word things for
 * the app, e.g. not to suggest `npx hookscope open`.)
 */
export interface DesktopBridge {
  readonly desktop: true;
  readonly platform: NodeJS.Platform;
}

export const BRIDGE_KEY = 'hookscopeDesktop';
