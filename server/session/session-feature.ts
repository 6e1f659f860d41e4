import type { AccountContext } from '../auth/account-context.ts';
import { trustedProxies } from '../http/client-address.ts';
import type { BaseUrls } from '../support/base-urls.ts';
import type { Clock } from '../support/clock.ts';
import type { Random } from '../support/random.ts';
import { sessionMigrations } from './session-migrations.ts';
import type { SessionRepository } from './session-repository.ts';
import type { SignInCodeRepository } from './sign-in-code-repository.ts';
import { sessionRoutes } from './session-routes.ts';
import { SessionService } from './session-service.ts';
import { SignInCodes } from './sign-in-codes.ts';
import { SignInRateLimit } from './sign-in-rate-limit.ts';

export interface SessionFeatureDeps {
  /** Whichever backend the engine built (server/storage/). */
  repo: SessionRepository;
  /** Where sign-in codes are kept: memory on the desktop, the database every instance shares with PostgreSQL. */
  codes: SignInCodeRepository;
  urls: Pick<BaseUrls, 'api'>;
  clock: Clock;
  random: Random;
  /** How long a UI session lasts (`sessionTtlMs`). */
  sessionTtlMs: number;
  /** The account that may change engine-wide settings (`owner`). */
  owner: string;
  /** A team server's public URL (`publicBaseUrl`): sign-in links point there, and https makes the cookie `Secure`. */
  publicUrl: string | null;
  /** Sign-in attempts per minute per source address; 0 = no limit. */
  signInPerMinute: number;
  /** Signs a bearer token for an account (`POST /api/session/token`); called only once the engine serves. */
  issueToken: (account: AccountContext, ttlMs: number) => Promise<string>;
  /** How long such a token lasts (`tokenTtlMs`). */
  tokenTtlMs: number;
  /** Reverse proxies whose X-Forwarded-For names the client the limit counts (`trustProxy`). */
  trustProxy: readonly string[];
}

/**
 * Signing in to the UI: one-time links (`hookscope open`) exchanged for a
 * session cookie, whose sessions live in the store. Its service is also what the
 * authenticator asks about each cookie.
 */
export function sessionFeature(deps: SessionFeatureDeps) {
  const service = new SessionService({
    ...deps,
    // The UI is reached through the proxy: a link to the bound address would not open for a teammate.
    urls: deps.publicUrl === null ? deps.urls : { api: deps.publicUrl },
    codes: new SignInCodes(deps.codes, deps.clock, deps.random),
  });
  return {
    name: 'session',
    migrations: sessionMigrations,
    service,
    routes: sessionRoutes(service, {
      sessionTtlMs: deps.sessionTtlMs,
      secureCookie: deps.publicUrl !== null && new URL(deps.publicUrl).protocol === 'https:',
      attempts: new SignInRateLimit(deps.clock, deps.signInPerMinute),
      proxies: trustedProxies(deps.trustProxy),
    }),
  };
}
