import type { AccountContext } from '../auth/account-context.ts';
import type { Clock } from '../support/clock.ts';
import { accountsMigrations } from './accounts-migrations.ts';
import type { AccountsRepository } from './accounts-repository.ts';
import { AccountsService } from './accounts-service.ts';

export interface AccountsFeatureDeps {
  /** Whichever backend the engine built (server/storage/). */
  repo: AccountsRepository;
  clock: Clock;
  /** Created on start if missing: the account of a token minted on this machine. */
  localAccount: AccountContext;
}

/** Accounts the engine knows (tokens name them; engine-wide events go to each). */
export function accountsFeature(deps: AccountsFeatureDeps) {
  const service = new AccountsService(deps.repo, deps.clock);
  return {
    name: 'accounts',
    migrations: accountsMigrations,
    service,
    start: async (): Promise<void> => {
      await service.init();
      await service.ensure(deps.localAccount);
    },
  };
}
