import type { AccountContext } from '../auth/account-context.ts';
import type { LogsService } from '../logs/logs-service.ts';
import type { LogComparison } from './compare-schemas.ts';
import { compareLogs } from './log-comparison.ts';

export interface CompareServiceDeps {
  logs: Pick<LogsService, 'get'>;
}

/** Compares two of an account's stored deliveries; either unknown or another account's is 404. */
export class CompareService {
  constructor(private readonly deps: CompareServiceDeps) {}

  async compare(account: AccountContext, aId: string, bId: string): Promise<LogComparison> {
    const a = await this.deps.logs.get(account, aId);
    const b = bId === aId ? a : await this.deps.logs.get(account, bId);
    return compareLogs(a, b);
  }
}
