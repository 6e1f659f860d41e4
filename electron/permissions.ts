/**
 * Permission requests and checks from the renderer: every one is denied (Electron
 * grants them all unless a handler says otherwise), with one exception: writing
 * text to the clipboard (`clipboard-sanitized-write`, what `navigator.clipboard.writeText`
 * asks for) from the app's own page. The UI's copy buttons (public URL, cURL,
 * share link) use it, a browser grants it to any focused page on a click, and it
 * writes sanitized data only; reading the clipboard stays denied.
 */
const ALLOWED_FROM_APP = new Set(['clipboard-sanitized-write']);

/** Whether `permission`, asked for by a page at `requestingUrl`, is granted. */
export function permissionAllowed(permission: string, requestingUrl: string | undefined, origin: string): boolean {
  if (!ALLOWED_FROM_APP.has(permission) || !requestingUrl) return false;
  try {
    return new URL(requestingUrl).origin === origin;
  } catch {
    return false;
  }
}

/**
 * For `session.setPermissionRequestHandler`: `details.requestingUrl` is the asking frame's URL; `origin` gives
 * the app's origin at the time of the call (it follows the engine shown).
 */
export function permissionRequestHandler(
  origin: () => string,
): (
  webContents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: { requestingUrl?: string },
) => void {
  return (_webContents, permission, callback, details) =>
    callback(permissionAllowed(permission, details.requestingUrl, origin()));
}

/** For `session.setPermissionCheckHandler`: the check before a request, with the asking origin. */
export function permissionCheckHandler(
  origin: () => string,
): (webContents: unknown, permission: string, requestingOrigin: string) => boolean {
  return (_webContents, permission, requestingOrigin) => permissionAllowed(permission, requestingOrigin, origin());
}

/** For `session.setDevicePermissionHandler` (HID, serial, USB): never. */
export const denyDevices = (): boolean => false;
