import type { EndpointRecord } from '../../endpoints/endpoint-types.ts';
import type { EndpointsRepository } from '../../endpoints/endpoints-repository.ts';
import {
  ENDPOINT_COLUMNS,
  ENDPOINT_MUTABLE_COLUMNS,
  endpointFromRow,
  endpointMutableValues,
  endpointValues,
  type EndpointRow,
} from '../rows/endpoint-row.ts';
import type { Sql } from './postgres-database.ts';

/** PostgreSQL has a boolean type: a flag is written as it is. */
const flag = (on: boolean): boolean => on;

/** Endpoints in PostgreSQL (tables: endpoints-migrations.ts). */
export class PostgresEndpointsRepository implements EndpointsRepository {
  constructor(private readonly db: Sql) {}

  async all(): Promise<EndpointRecord[]> {
    return (await this.db.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM endpoints`)).map(endpointFromRow);
  }

  async find(id: string): Promise<EndpointRecord | undefined> {
    const rows = await this.db.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM endpoints WHERE id = $1`, [id]);
    return rows[0] && endpointFromRow(rows[0]);
  }

  async insert(e: EndpointRecord): Promise<void> {
    const values = endpointValues(e, flag);
    await this.db.query(
      `INSERT INTO endpoints (${ENDPOINT_COLUMNS}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`,
      [...values],
    );
  }

  async update(e: EndpointRecord): Promise<void> {
    // $1 and $2 are the id and the account; the mutable columns follow.
    await this.db.query(
      `UPDATE endpoints SET ${ENDPOINT_MUTABLE_COLUMNS.map((c, i) => `${c} = $${i + 3}`).join(', ')}
       WHERE id = $1 AND account_id = $2`,
      [e.id, e.accountId, ...endpointMutableValues(e, flag)],
    );
  }

  async erasePreviousSecrets(ids: string[], expiredBy: number): Promise<void> {
    if (ids.length === 0) return;
    // The expiry condition spares a secret a regenerate rotated out meanwhile (its grace has just begun).
    await this.db.query(
      'UPDATE endpoints SET previous_secret = NULL WHERE id = ANY($1) AND previous_secret_expires_at <= $2',
      [ids, expiredBy],
    );
  }

  async delete(accountId: string, id: string): Promise<void> {
    await this.db.query('DELETE FROM endpoints WHERE id = $1 AND account_id = $2', [id, accountId]);
  }
}
