import { accountsMigrations } from '../../server/accounts/accounts-migrations.ts';
import { endpointsMigrations } from '../../server/endpoints/endpoints-migrations.ts';
import { logsMigrations } from '../../server/logs/logs-migrations.ts';
import { remediationMigrations } from '../../server/remediation/remediation-migrations.ts';
import { SqljsAccountsRepository } from '../../server/storage/sqljs/accounts-sqljs.ts';
import { SqljsEndpointsRepository } from '../../server/storage/sqljs/endpoints-sqljs.ts';
import { SqljsRemediationRepository } from '../../server/storage/sqljs/remediation-sqljs.ts';
import { SqljsStore } from '../../server/store/sqljs-store.ts';
import { describe } from '../helpers/node-test.ts';
import { tempDirs } from '../helpers/temp-dir.ts';
import { accountsContract } from './accounts-contract.ts';
import type { ContractHarness } from './contract-harness.ts';
import { endpointsContract } from './endpoints-contract.ts';
import { remediationContract } from './remediation-contract.ts';

/** The contract suites against the embedded backend: a real sql.js store in a temp dir per test. */
const tempDir = tempDirs('hookscope-contract-');
const opened: SqljsStore[] = [];

/** A store holding the given features' tables, as the engine opens it. */
function harness<R>(features: Parameters<typeof SqljsStore.open>[0]['migrations'], repo: (s: SqljsStore) => R) {
  return {
    make: async () => {
      const store = await SqljsStore.open({ dir: await tempDir(), migrations: features });
      opened.push(store);
      return repo(store);
    },
    close: async () => {
      for (const store of opened.splice(0)) await store.close();
    },
  } satisfies ContractHarness<R>;
}

describe('sql.js', () => {
  accountsContract(
    harness([{ feature: 'accounts', migrations: accountsMigrations }], (s) => ({
      repo: new SqljsAccountsRepository(s),
      stored: (id: string) =>
        s.get<{ name: string; createdAt: number }>('SELECT name, created_at AS createdAt FROM accounts WHERE id = ?', [
          id,
        ]),
    })),
  );
  endpointsContract(
    harness([{ feature: 'endpoints', migrations: endpointsMigrations }], (s) => new SqljsEndpointsRepository(s)),
  );
  remediationContract(
    harness(
      // The logs feature's too: remediation's sql.js migrations put a trigger on its table.
      [
        { feature: 'logs', migrations: logsMigrations },
        { feature: 'remediation', migrations: remediationMigrations },
      ],
      (s) => new SqljsRemediationRepository(s),
    ),
  );
});
