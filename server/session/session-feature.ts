import type { TokenService } from '../auth/token-service.ts';
import type { BaseUrls } from '../support/base-urls.ts';
import type { Clock } from '../support/clock.ts';
import type { Random } from '../support/random.ts';
import { SessionService } from './session-service.ts';
import { sessionRoutes } from './session-routes.ts';
import { SignInCodes } from './sign-in-codes.ts';

export interface SessionFeatureDeps {
  tokens: Pick<TokenService, 'issue'>;
  urls: Pick<BaseUrls, 'api'>;
  clock: Clock;
  random: Random;
  sessionTtlMs: number;
}

/** Signing in to the UI: one-time links (`hookscope open`) exchanged for a session cookie. */
export function sessionFeature(deps: SessionFeatureDeps) {
  const service = new SessionService({ ...deps, codes: new SignInCodes(deps.clock, deps.random) });
  return { name: 'session', service, routes: sessionRoutes(service, deps.sessionTtlMs) };
}
