/** Where a replay goes unless the user says otherwise: the local dev server. */
export const DEFAULT_TARGET_BASE = 'http://localhost:3000';

/**
 * The base URL joined with the delivery's sub-path (`/retry` of `/webhook/ep_x/retry`):
 * one slash between them whatever either side ends or starts with, and a
 * sub-path that is only `/` adds nothing. A base that is not an http(s) URL is
 * returned as typed, for the engine to refuse with its own words.
 *
 * A sender chooses the sub-path, and the URL parser resolves its dot segments
 * (`/../admin`, `/%2e%2e/admin`): a sub-path that would leave the base's path is
 * not joined, the base alone is offered, as the engine's forwarder refuses it.
 */
export function replayTarget(base: string, subPath: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return base;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return base;
  const rest = subPath.replace(/^\/+/, '');
  if (rest === '') return url.pathname === '/' ? url.toString().replace(/\/$/, '') : url.toString();
  const basePath = url.pathname.replace(/\/+$/, '');
  const joined = new URL(url);
  joined.pathname = `${basePath}/${rest}`;
  return joined.pathname.startsWith(`${basePath}/`) ? joined.toString() : url.toString();
}

/**
 * What is remembered per endpoint: the target without this delivery's sub-path,
 * so the next delivery (another sub-path) gets its own joined to the same base.
 */
export function targetBase(target: string, subPath: string): string {
  if (subPath === '/' || subPath === '' || !target.endsWith(subPath)) return target;
  return target.slice(0, -subPath.length) || target;
}
