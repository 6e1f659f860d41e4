import { parseCookie, stringifySetCookie } from 'cookie';

/** The renderer's session: a token like the CLI's bearer tokens, kept where page scripts cannot read it. */
export const SESSION_COOKIE = 'hookscope_session';

/**
 * The header the renderer sends with every request that changes something. A
 * cross-site page cannot send a custom header without a CORS preflight, which
 * the engine never grants, so a request carrying it came from the engine's own origin.
 */
export const SESSION_REQUEST_HEADER = 'x-hookscope-request';

/** The session token in a `Cookie` header, if any. */
export function sessionFromCookies(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return parseCookie(header)[SESSION_COOKIE] || undefined;
}

/**
 * `Set-Cookie` for a session: HttpOnly (no script reads it), SameSite=Strict (no
 * other site's request carries it), host-only and path `/` (the API origin alone).
 * Not `Secure`: the engine speaks plain HTTP on loopback.
 */
export function sessionSetCookie(token: string, maxAgeMs: number): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: token,
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

/** `Set-Cookie` that removes the session (sign-out). */
export function sessionClearCookie(): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: '',
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: 0,
  });
}
