import { parseCookie, stringifySetCookie } from 'cookie';
import { UnauthorizedError } from '../errors/app-errors.ts';

/**
 * The renderer's session: an opaque random id, kept where page scripts cannot
 * read it. The engine stores only its hash, with the account and the expiry
 * (server/session), so signing out ends it for good.
 */
export const SESSION_COOKIE = 'hookscope_session';

/**
 * The header the renderer sends with every request. A page of another origin
 * cannot send a custom header without a CORS preflight, which the engine never
 * grants, so a request carrying it came from the engine's own origin.
 */
export const SESSION_REQUEST_HEADER = 'x-hookscope-request';

/** Every session cookie value in a `Cookie` header, in order (a browser may send several of the same name). */
export function sessionCookieValues(header: string | undefined): string[] {
  if (!header) return [];
  // parseCookie keeps only the first of a name, so each pair is parsed on its own.
  return header.split(';').flatMap((pair) => {
    const value = parseCookie(pair)[SESSION_COOKIE];
    return value === undefined ? [] : [value];
  });
}

/**
 * The session id in a `Cookie` header, if any. Two are refused whichever comes
 * first: cookies ignore ports, so a page on another port of this host (a
 * receiver's answer, another local server) can set a second `hookscope_session`
 * with a narrower path, which the browser then sends first, to sign this
 * browser in as an account of its choosing.
 */
export function sessionFromCookies(header: string | undefined): string | undefined {
  const values = sessionCookieValues(header);
  if (values.length > 1) {
    throw new UnauthorizedError(
      `The request carries ${values.length} ${SESSION_COOKIE} cookies; a page on another port of this host may have set one. ` +
        "Clear this site's cookies, then sign in again with `npx hookscope open`.",
      'DUPLICATE_SESSION_COOKIE',
    );
  }
  return values[0] || undefined;
}

/**
 * `Set-Cookie` for a session: HttpOnly (no script reads it), SameSite=Strict (no
 * other site's request carries it), host-only and path `/` (the API origin alone).
 * `Secure` when the engine is reached through an https public URL (a team
 * server's proxy); not on a laptop, where the engine speaks plain HTTP on loopback.
 */
export function sessionSetCookie(sessionId: string, maxAgeMs: number, secure: boolean): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: sessionId,
    httpOnly: true,
    secure,
    sameSite: 'strict',
    path: '/',
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

/** `Set-Cookie` that removes the session (sign-out); `secure` as the cookie it replaces. */
export function sessionClearCookie(secure: boolean): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: '',
    httpOnly: true,
    secure,
    sameSite: 'strict',
    path: '/',
    maxAge: 0,
  });
}
