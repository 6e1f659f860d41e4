import type { Migration } from '../store/store-types.ts';

export const accountsMigrations: Migration[] = [
  {
    number: 1,
    legacyVersion: 1,
    name: 'accounts',
    sql: `CREATE TABLE accounts (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            created_at INTEGER NOT NULL
          );`,
  },
];
