/**
 * Where the window's page comes from, as an origin (`http://127.0.0.1:4680`):
 * the engine's API address, which serves the built renderer, so the page, the
 * API and the session cookie share one origin. `npm run dev` points the window
 * at Vite's dev server instead (HOOKSCOPE_RENDERER_URL), but only outside a
 * packaged app and only on loopback: an installed app never loads its UI from
 * anywhere the environment names.
 */
export function appOrigin(input: { apiUrl: string; devRendererUrl?: string | undefined; packaged: boolean }): string {
  if (!input.packaged && input.devRendererUrl) {
    const dev = new URL(input.devRendererUrl);
    if (dev.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(dev.hostname)) return dev.origin;
  }
  return new URL(input.apiUrl).origin;
}

/**
 * The page to open at start: the engine's one-time sign-in link (the same flow as
 * `hookscope open`; the renderer trades the code for an HttpOnly session cookie
 * and removes it from the address), moved to the app's origin when that differs.
 */
export function signInPage(signInUrl: string, origin: string): string {
  const link = new URL(signInUrl);
  return `${origin}/${link.hash}`;
}

/** The page of one delivery (the renderer's deep link), e.g. from a notification. */
export function deliveryPage(origin: string, logId: string): string {
  return `${origin}/#/logs/${encodeURIComponent(logId)}`;
}
