import type { Store } from '../store/store-types.ts';
import type { BaseUrls } from '../support/base-urls.ts';
import type { Clock } from '../support/clock.ts';
import type { Random } from '../support/random.ts';
import { sessionMigrations } from './session-migrations.ts';
import { SessionRepository } from './session-repository.ts';
import { sessionRoutes } from './session-routes.ts';
import { SessionService } from './session-service.ts';
import { SignInCodes } from './sign-in-codes.ts';

export interface SessionFeatureDeps {
  store: Store;
  urls: Pick<BaseUrls, 'api'>;
  clock: Clock;
  random: Random;
  /** How long a UI session lasts (`sessionTtlMs`). */
  sessionTtlMs: number;
}

/**
 * Signing in to the UI: one-time links (`hookscope open`) exchanged for a
 * session cookie, whose sessions live in the store. Its service is also what the
 * authenticator asks about each cookie.
 */
export function sessionFeature(deps: SessionFeatureDeps) {
  const service = new SessionService({
    ...deps,
    codes: new SignInCodes(deps.clock, deps.random),
    repo: new SessionRepository(deps.store),
  });
  return {
    name: 'session',
    migrations: sessionMigrations,
    service,
    routes: sessionRoutes(service, deps.sessionTtlMs),
  };
}
