import type { EndpointRecord } from '../../endpoints/endpoint-types.ts';
import type { EndpointsRepository } from '../../endpoints/endpoints-repository.ts';
import type { Store } from '../../store/store-types.ts';
import {
  ENDPOINT_COLUMNS,
  ENDPOINT_MUTABLE_COLUMNS,
  endpointFromRow,
  endpointMutableValues,
  endpointValues,
  type EndpointRow,
} from '../rows/endpoint-row.ts';

/** SQLite has no boolean: a flag is 0 or 1. */
const flag = (on: boolean): number => (on ? 1 : 0);

/** Endpoints in the embedded sql.js store (the endpoints feature's sql.js migrations create the table). */
export class SqljsEndpointsRepository implements EndpointsRepository {
  constructor(private readonly store: Store) {}

  async all(): Promise<EndpointRecord[]> {
    return (await this.store.all<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM endpoints`)).map(endpointFromRow);
  }

  async find(id: string): Promise<EndpointRecord | undefined> {
    const rows = await this.store.all<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM endpoints WHERE id = ?`, [id]);
    return rows[0] && endpointFromRow(rows[0]);
  }

  async insert(e: EndpointRecord): Promise<void> {
    const values = endpointValues(e, flag);
    await this.store.write([
      {
        sql: `INSERT INTO endpoints (${ENDPOINT_COLUMNS}) VALUES (${values.map(() => '?').join(', ')})`,
        params: [...values],
      },
    ]);
  }

  async update(e: EndpointRecord): Promise<void> {
    await this.store.write([
      {
        sql: `UPDATE endpoints SET ${ENDPOINT_MUTABLE_COLUMNS.map((c) => `${c} = ?`).join(', ')}
              WHERE id = ? AND account_id = ?`,
        params: [...endpointMutableValues(e, flag), e.id, e.accountId],
      },
    ]);
  }

  async erasePreviousSecrets(ids: string[], expiredBy: number): Promise<void> {
    if (ids.length === 0) return;
    // The expiry condition spares a secret a regenerate rotated out meanwhile (its grace has just begun).
    const sql = 'UPDATE endpoints SET previous_secret = NULL WHERE id = ? AND previous_secret_expires_at <= ?';
    await this.store.write(ids.map((id) => ({ sql, params: [id, expiredBy] })));
  }

  async delete(accountId: string, id: string): Promise<void> {
    await this.store.write([{ sql: 'DELETE FROM endpoints WHERE id = ? AND account_id = ?', params: [id, accountId] }]);
  }
}
