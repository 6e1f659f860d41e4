import { logsMigrations } from '../../server/logs/logs-migrations.ts';
import { SqljsStore } from '../../server/store/sqljs-store.ts';
import type { Migration } from '../../server/store/store-types.ts';

/** An embedded store of the logs feature alone, at today's schema or an older one (`migrations` filtered). */
export const openLogsStore = (dir: string, migrations: readonly Migration[] = logsMigrations): Promise<SqljsStore> =>
  SqljsStore.open({ dir, migrations: [{ feature: 'logs', migrations }] });
