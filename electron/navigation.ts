import type { HandlerDetails, WindowOpenHandlerResponse } from 'electron';

/** What happens to a navigation or a `window.open`: stays in the app, goes to the system browser, or nowhere. */
export type LinkDecision = 'allow' | 'external' | 'deny';

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Only web links go to the system browser: never `file:`, `javascript:`, custom schemes or anything else. */
export function isExternalWebUrl(url: string): boolean {
  const protocol = parse(url)?.protocol;
  return protocol === 'http:' || protocol === 'https:';
}

/**
 * A navigation of the window. Only the UI's own routes stay: its one page, `/`,
 * whose views are hash routes (`/#/logs/<id>`, `/#/sign-in/<code>`). That is an
 * allow-list, not a block-list: the app's origin is the engine's API listener,
 * which also answers `/webhook/*`, `/share/*` and `/api/*`, and none of them
 * belongs in the window, however its path is spelt. They are refused and opened
 * nowhere: the UI never links there, and opening one in the browser would send a
 * request to the engine (a GET of `/webhook/...` records a delivery). A web link
 * to another origin opens in the system browser; anything else goes nowhere.
 */
export function navigationDecision(url: string, origin: string): LinkDecision {
  const target = parse(url);
  if (target === null) return 'deny';
  if (target.origin === origin) return target.pathname === '/' ? 'allow' : 'deny';
  return isExternalWebUrl(url) ? 'external' : 'deny';
}

/**
 * `window.open` and `target=_blank` links never make a second Electron window:
 * the app has one, and a page of the app's own origin in a second window would
 * have no sign-in. Web links to other origins (a share link on the receiver's or
 * the public URL, documentation) open in the browser; the app's own origin, for
 * the reasons of `navigationDecision`, nowhere.
 */
export function windowOpenDecision(url: string, origin: string): LinkDecision {
  const target = parse(url);
  return target !== null && target.origin !== origin && isExternalWebUrl(url) ? 'external' : 'deny';
}

export interface NavigationDeps {
  /** The app's origin at the time of the call: it follows the engine shown (electron/engine-choice.ts). */
  origin: () => string;
  /** `shell.openExternal`, called only with http(s) URLs of other origins. */
  openExternal: (url: string) => void;
}

/** The `will-navigate` and `will-redirect` listener: anything but the UI's own routes is stopped here. */
export function navigationGuard(deps: NavigationDeps): (event: { preventDefault(): void }, url: string) => void {
  return (event, url) => {
    const decision = navigationDecision(url, deps.origin());
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'external') deps.openExternal(url);
  };
}

/** The `setWindowOpenHandler` handler: always denies the window, and hands web links of other origins to the browser. */
export function windowOpenHandler(
  deps: NavigationDeps,
): (details: Pick<HandlerDetails, 'url'>) => WindowOpenHandlerResponse {
  return ({ url }) => {
    if (windowOpenDecision(url, deps.origin()) === 'external') deps.openExternal(url);
    return { action: 'deny' };
  };
}
