/**
 * Whether the page runs in the desktop app. Its window has no preload
 * (electron/web-preferences.ts), so nothing of Electron is on the page; Electron's
 * default user agent, which the app keeps, carries `Electron/<version>`.
 */
export function inDesktopApp(userAgent: string): boolean {
  return /\bElectron\//.test(userAgent);
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The command that starts the engine again where this page finds it: the page is
 * served by the engine at its API address, so the same port brings it back (4680,
 * the default, needs no flag). Null for an engine on another host (a team server),
 * which only whoever runs it can start.
 */
export function serveCommand(location: Pick<Location, 'hostname' | 'port'>): string | null {
  if (!LOOPBACK.has(location.hostname)) return null;
  const port = location.port || '80'; // the address bar leaves out http's own port
  return port === '4680' ? 'npx hookscope serve' : `npx hookscope serve --api-port ${port}`;
}
