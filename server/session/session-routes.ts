import { sessionClearCookie, sessionCookieValues, sessionSetCookie } from '../auth/session-cookie.ts';
import { route, type RouteSpec } from '../http/route.ts';
import { RedeemBody, SessionSchema, SignedOutSchema, SignInCodeSchema } from './session-schemas.ts';
import type { SessionService } from './session-service.ts';

const CODE_INVALID = 'SIGN_IN_CODE_INVALID: the code is unknown, expired or already used';

export function sessionRoutes(sessions: SessionService, sessionTtlMs: number): RouteSpec[] {
  const tag = 'Session';
  return [
    route({
      method: 'post',
      path: '/api/session/codes',
      summary: 'A one-time sign-in link to the UI for the caller’s account (`hookscope open`)',
      tag,
      responses: { 201: { description: 'The link; it works once, for 10 minutes', data: SignInCodeSchema } },
      handler: async ({ account }) => ({ status: 201, data: sessions.issueLink(account) }),
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
      },
      handler: async ({ body, req, res }) => {
        const cookies = sessionCookieValues(req.headers.cookie);
        const { sessionId, view } = await sessions.redeem(body.code, cookies, body.switchAccount ?? false);
        res.setHeader('Set-Cookie', sessionSetCookie(sessionId, sessionTtlMs));
        return { data: view };
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
        res.setHeader('Set-Cookie', sessionClearCookie());
        return { data: { signedOut: true as const } };
      },
    }),
  ];
}
