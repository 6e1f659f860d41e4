import { sessionClearCookie, sessionCookieValues, sessionSetCookie } from '../auth/session-cookie.ts';
import { clientAddress, type TrustedProxies } from '../http/client-address.ts';
import { route, type RouteSpec } from '../http/route.ts';
import {
  IssuedTokenSchema,
  RedeemBody,
  SessionSchema,
  SignedOutSchema,
  SignInCodeSchema,
  TokenBody,
} from './session-schemas.ts';
import type { SessionService } from './session-service.ts';
import type { SignInRateLimit } from './sign-in-rate-limit.ts';

const CODE_INVALID = 'SIGN_IN_CODE_INVALID: the code is unknown, expired or already used';
const RATE_LIMITED =
  'SIGN_IN_RATE_LIMITED: too many sign-in attempts from this address this minute (Retry-After says when to try again)';

export interface SessionRouteOptions {
  sessionTtlMs: number;
  /** The session cookie is `Secure` (an https public URL). */
  secureCookie: boolean;
  /** Counts code redemptions and links minted, per source address. */
  attempts: SignInRateLimit;
  /** Behind one of these, the client X-Forwarded-For names is counted, not the proxy (docs/API.md "Sign-in rate limit"). */
  proxies: TrustedProxies;
}

export function sessionRoutes(sessions: SessionService, o: SessionRouteOptions): RouteSpec[] {
  const tag = 'Session';
  return [
    route({
      method: 'post',
      path: '/api/session/codes',
      summary: 'A one-time sign-in link to the UI for the caller’s account (`hookscope open`)',
      tag,
      responses: { 201: { description: 'The link; it works once, for 10 minutes', data: SignInCodeSchema } },
      errors: { 429: RATE_LIMITED },
      handler: async ({ account, req }) => {
        o.attempts.take(clientAddress(req, o.proxies) ?? '');
        return { status: 201, data: await sessions.issueLink(account) };
      },
    }),
    route({
      method: 'post',
      path: '/api/session',
      summary:
        'Exchange a sign-in code for a session cookie (HttpOnly, SameSite=Strict); the sessions of the cookies sent along end',
      tag,
      auth: false,
      body: RedeemBody,
      responses: { 200: { description: 'Signed in; the answer sets the session cookie', data: SessionSchema } },
      errors: {
        401: CODE_INVALID,
        409: 'ACCOUNT_SWITCH_UNCONFIRMED: the request carries a session of another account and no switchAccount: true; the code stays unspent, details name both accounts (signedInAs, account)',
        429: RATE_LIMITED,
      },
      handler: async ({ body, req, res }) => {
        o.attempts.take(clientAddress(req, o.proxies) ?? '');
        const cookies = sessionCookieValues(req.headers.cookie);
        const { sessionId, view } = await sessions.redeem(body.code, cookies, body.switchAccount ?? false);
        res.setHeader('Set-Cookie', sessionSetCookie(sessionId, o.sessionTtlMs, o.secureCookie));
        return { data: view };
      },
    }),
    route({
      method: 'post',
      path: '/api/session/token',
      summary:
        'Exchange a sign-in code for a bearer token (`hookscope login`): for a client on another machine, no cookie',
      tag,
      auth: false,
      body: TokenBody,
      responses: {
        200: {
          description: 'The token, for the code’s account, with the engine’s token lifetime',
          data: IssuedTokenSchema,
        },
      },
      errors: { 401: CODE_INVALID, 429: RATE_LIMITED },
      handler: async ({ body, req }) => {
        // The same count as the UI's sign-in: both spend the same codes.
        o.attempts.take(clientAddress(req, o.proxies) ?? '');
        return { data: await sessions.redeemForToken(body.code) };
      },
    }),
    route({
      method: 'get',
      path: '/api/session',
      summary: 'Who the request is signed in as (cookie or bearer token)',
      tag,
      acts: false,
      responses: { 200: { description: 'The account', data: SessionSchema } },
      handler: async ({ account }) => ({ data: sessions.describe(account) }),
    }),
    route({
      method: 'delete',
      path: '/api/session',
      summary: 'Sign out: ends the session on the engine (the cookie stops working) and removes the cookie',
      tag,
      auth: false,
      responses: { 200: { description: 'Signed out', data: SignedOutSchema } },
      handler: async ({ req, res }) => {
        await sessions.signOut(sessionCookieValues(req.headers.cookie));
        res.setHeader('Set-Cookie', sessionClearCookie(o.secureCookie));
        return { data: { signedOut: true as const } };
      },
    }),
  ];
}
