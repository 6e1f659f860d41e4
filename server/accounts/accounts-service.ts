import type { AccountContext } from '../auth/account-context.ts';
import type { Clock } from '../support/clock.ts';
import type { AccountsRepository } from './accounts-repository.ts';

/**
 * Accounts are created on first use: a token signed with this install's key is
 * the authority (the CLI mints tokens from the key file without a running
 * engine), so the first authenticated request for a new account creates its row.
 */
export class AccountsService {
  private readonly known = new Set<string>();

  constructor(
    private readonly repo: AccountsRepository,
    private readonly clock: Clock,
  ) {}

  async init(): Promise<void> {
    for (const id of await this.repo.allIds()) this.known.add(id);
  }

  /** Every known account (engine-wide events such as the tunnel status go to each). */
  ids(): string[] {
    return [...this.known];
  }

  async ensure(account: AccountContext): Promise<void> {
    if (this.known.has(account.id)) return;
    await this.repo.insertIfMissing(account.id, account.name, this.clock.now());
    this.known.add(account.id);
  }
}
