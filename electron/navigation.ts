import type { HandlerDetails, WindowOpenHandlerResponse } from 'electron';

/** What happens to a navigation or a `window.open`: stays in the app, goes to the system browser, or nowhere. */
export type LinkDecision = 'allow' | 'external' | 'deny';

/** Only web links go to the system browser: never `file:`, `javascript:`, custom schemes or anything else. */
export function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** A navigation of the window: the app's own origin stays, a web link elsewhere opens in the browser. */
export function navigationDecision(url: string, origin: string): LinkDecision {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'deny';
  }
  if (target.origin === origin) return 'allow';
  return isExternalWebUrl(url) ? 'external' : 'deny';
}

/**
 * `window.open` and `target=_blank` links never make a second Electron window:
 * the app has one, and a page of the app's own origin in a second window would
 * have no sign-in. Web links (a share link, documentation) open in the browser.
 */
export function windowOpenDecision(url: string): LinkDecision {
  return isExternalWebUrl(url) ? 'external' : 'deny';
}

export interface NavigationDeps {
  origin: string;
  /** `shell.openExternal`, called only with http(s) URLs. */
  openExternal: (url: string) => void;
}

/** The `will-navigate` and `will-redirect` listener: anything but the app's origin is stopped here. */
export function navigationGuard(deps: NavigationDeps): (event: { preventDefault(): void }, url: string) => void {
  return (event, url) => {
    const decision = navigationDecision(url, deps.origin);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'external') deps.openExternal(url);
  };
}

/** The `setWindowOpenHandler` handler: always denies the window, and hands web links to the browser. */
export function windowOpenHandler(
  deps: NavigationDeps,
): (details: Pick<HandlerDetails, 'url'>) => WindowOpenHandlerResponse {
  return ({ url }) => {
    if (windowOpenDecision(url) === 'external') deps.openExternal(url);
    return { action: 'deny' };
  };
}
