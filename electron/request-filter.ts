/**
 * No remote content: the window's session loads nothing but the app's own
 * origin (the engine, or Vite's dev server with its hot-reload socket under
 * `npm run dev`), plus the browser's own `data:`/`blob:` URLs and DevTools. The
 * page's Content-Security-Policy says the same; this holds even for a response
 * that lacks it.
 */
export function requestAllowed(url: string, origin: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (['data:', 'blob:', 'devtools:'].includes(target.protocol)) return true;
  // A WebSocket to the app's host and port (Vite's hot reload) counts as the app.
  const asHttp = target.protocol === 'ws:' ? 'http:' : target.protocol === 'wss:' ? 'https:' : target.protocol;
  return `${asHttp}//${target.host}` === origin;
}

/**
 * For `session.webRequest.onBeforeRequest`: cancels every request `requestAllowed` refuses for each of the
 * origins `origins()` gives at the time (the engine shown, and the local engine's so it can come back).
 */
export function requestFilter(
  origins: () => readonly string[],
): (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void {
  return (details, callback) => callback({ cancel: !origins().some((origin) => requestAllowed(details.url, origin)) });
}
