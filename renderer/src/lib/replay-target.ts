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
 * The target without this delivery's sub-path, so the next delivery (another
 * sub-path) gets its own joined to the same base.
 */
export function targetBase(target: string, subPath: string): string {
  if (subPath === '/' || subPath === '' || !target.endsWith(subPath)) return target;
  return target.slice(0, -subPath.length) || target;
}

/** A target the user sent a replay to, with the sub-path of the delivery it was sent for. */
export interface UsedTarget {
  target: string;
  subPath: string;
}

/**
 * The target offered for a delivery: the last one used, exactly as typed, when the
 * delivery has the same sub-path; else that target's base joined with this
 * sub-path (a typed path that does not end in the old sub-path is the base whole);
 * the local dev server when nothing was used yet.
 */
export function offeredTarget(used: UsedTarget | null, subPath: string): string {
  if (used === null) return replayTarget(DEFAULT_TARGET_BASE, subPath);
  if (used.subPath === subPath) return used.target;
  return replayTarget(targetBase(used.target, used.subPath), subPath);
}

/**
 * A remembered target as storage holds it (`{"target","subPath"}`). Anything else
 * is a bare base, as earlier versions kept it: it is offered joined with each
 * delivery's sub-path, as it was then.
 */
export function parseUsedTarget(stored: string | null): UsedTarget | null {
  if (stored === null || stored === '') return null;
  try {
    const v: unknown = JSON.parse(stored);
    if (typeof v === 'object' && v !== null && 'target' in v && 'subPath' in v) {
      const { target, subPath } = v;
      if (typeof target === 'string' && typeof subPath === 'string') return { target, subPath };
    }
  } catch {
    // Not JSON: a bare base.
  }
  return { target: stored, subPath: '/' };
}
