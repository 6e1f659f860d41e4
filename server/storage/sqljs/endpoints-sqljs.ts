import type { CustomResponse } from '../../endpoints/custom-response.ts';
import type { EndpointRecord } from '../../endpoints/endpoint-types.ts';
import type { EndpointsRepository } from '../../endpoints/endpoints-repository.ts';
import type { ValidationType } from '../../endpoints/validation-types.ts';
import type { Store } from '../../store/store-types.ts';

interface EndpointRow {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  validation_type: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  signature_header: string | null;
  tolerance_seconds: number | null;
  forward_url: string | null;
  custom_response: string | null;
  is_active: number;
  created_at: number;
  updated_at: number;
}

const COLUMNS = `id, account_id, name, description, validation_type, secret, previous_secret,
  previous_secret_expires_at, signature_header, tolerance_seconds, forward_url, custom_response, is_active, created_at,
  updated_at`;

const fromRow = (r: EndpointRow): EndpointRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  description: r.description,
  validationType: r.validation_type as ValidationType,
  secret: r.secret,
  previousSecret: r.previous_secret,
  previousSecretExpiresAt: r.previous_secret_expires_at,
  signatureHeader: r.signature_header,
  toleranceSeconds: r.tolerance_seconds,
  forwardUrl: r.forward_url,
  // Written by toParams from a validated CustomResponse; JSON keeps the whole answer in one column.
  customResponse: r.custom_response === null ? null : (JSON.parse(r.custom_response) as CustomResponse),
  isActive: r.is_active === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toParams = (e: EndpointRecord) => [
  e.id,
  e.accountId,
  e.name,
  e.description,
  e.validationType,
  e.secret,
  e.previousSecret,
  e.previousSecretExpiresAt,
  e.signatureHeader,
  e.toleranceSeconds,
  e.forwardUrl,
  e.customResponse === null ? null : JSON.stringify(e.customResponse),
  e.isActive ? 1 : 0,
  e.createdAt,
  e.updatedAt,
];

/** Endpoints in the embedded sql.js store (the endpoints feature's sql.js migrations create the table). */
export class SqljsEndpointsRepository implements EndpointsRepository {
  constructor(private readonly store: Store) {}

  async all(): Promise<EndpointRecord[]> {
    return (await this.store.all<EndpointRow>(`SELECT ${COLUMNS} FROM endpoints`)).map(fromRow);
  }

  async insert(e: EndpointRecord): Promise<void> {
    await this.store.write([
      {
        sql: `INSERT INTO endpoints (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        params: toParams(e),
      },
    ]);
  }

  async update(e: EndpointRecord): Promise<void> {
    await this.store.write([
      {
        sql: `UPDATE endpoints SET name = ?, description = ?, secret = ?, previous_secret = ?,
                previous_secret_expires_at = ?, signature_header = ?, tolerance_seconds = ?, forward_url = ?,
                custom_response = ?, is_active = ?, updated_at = ?
              WHERE id = ? AND account_id = ?`,
        params: [
          e.name,
          e.description,
          e.secret,
          e.previousSecret,
          e.previousSecretExpiresAt,
          e.signatureHeader,
          e.toleranceSeconds,
          e.forwardUrl,
          e.customResponse === null ? null : JSON.stringify(e.customResponse),
          e.isActive ? 1 : 0,
          e.updatedAt,
          e.id,
          e.accountId,
        ],
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
