import type { AccountContext } from '../auth/account-context.ts';
import type { LogsService } from '../logs/logs-service.ts';
import { compareLogs, type LogComparison } from './log-comparison.ts';

export interface CompareServiceDeps {
  logs: Pick<LogsService, 'find'>;
}

/** Compares two of an account's stored deliveries; either unknown or another account's is 404. */
export class CompareService {
  constructor(private readonly deps: CompareServiceDeps) {}

  async compare(account: AccountContext, aId: string, bId: string): Promise<LogComparison> {
    const a = await this.deps.logs.find(account, aId);
    const b = bId === aId ? a : await this.deps.logs.find(account, bId);
    return compareLogs(a, b);
  }
}
