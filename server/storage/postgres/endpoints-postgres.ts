import type { CustomResponse } from '../../endpoints/custom-response.ts';
import type { EndpointRecord } from '../../endpoints/endpoint-types.ts';
import type { EndpointsRepository } from '../../endpoints/endpoints-repository.ts';
import type { ValidationType } from '../../endpoints/validation-types.ts';
import type { Sql } from './postgres-database.ts';

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
  is_active: boolean;
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
  // Written from a validated CustomResponse (endpoints-migrations.ts says why it is text).
  customResponse: r.custom_response === null ? null : (JSON.parse(r.custom_response) as CustomResponse),
  isActive: r.is_active,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const customResponseText = (e: EndpointRecord): string | null =>
  e.customResponse === null ? null : JSON.stringify(e.customResponse);

/** Endpoints in PostgreSQL (tables: endpoints-migrations.ts). */
export class PostgresEndpointsRepository implements EndpointsRepository {
  constructor(private readonly db: Sql) {}

  async all(): Promise<EndpointRecord[]> {
    return (await this.db.query<EndpointRow>(`SELECT ${COLUMNS} FROM endpoints`)).map(fromRow);
  }

  async insert(e: EndpointRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO endpoints (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
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
        customResponseText(e),
        e.isActive,
        e.createdAt,
        e.updatedAt,
      ],
    );
  }

  async update(e: EndpointRecord): Promise<void> {
    await this.db.query(
      `UPDATE endpoints SET name = $3, description = $4, secret = $5, previous_secret = $6,
         previous_secret_expires_at = $7, signature_header = $8, tolerance_seconds = $9, forward_url = $10,
         custom_response = $11, is_active = $12, updated_at = $13
       WHERE id = $1 AND account_id = $2`,
      [
        e.id,
        e.accountId,
        e.name,
        e.description,
        e.secret,
        e.previousSecret,
        e.previousSecretExpiresAt,
        e.signatureHeader,
        e.toleranceSeconds,
        e.forwardUrl,
        customResponseText(e),
        e.isActive,
        e.updatedAt,
      ],
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
