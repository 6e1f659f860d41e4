import type { Migration } from '../../server/store/store-types.ts';

/** The one table the store's own tests write to: a unique name and a blob. */
export const ITEMS_TABLE: Migration = {
  number: 1,
  name: 'items',
  sql: 'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, data BLOB)',
};
