import type { CustomResponse } from '../../endpoints/custom-response.ts';
import type { EndpointRecord } from '../../endpoints/endpoint-types.ts';
import type { ValidationType } from '../../endpoints/validation-types.ts';

/**
 * An endpoint as a table row, the same on both backends: the columns, their order,
 * and the record read from and written to them. A backend keeps only its SQL and its
 * flag type: sql.js stores `is_active` as 0/1, PostgreSQL as boolean.
 */
export interface EndpointRow {
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
  is_active: number | boolean;
  created_at: number;
  updated_at: number;
}

/** Every column, in the order endpointValues gives their values. */
export const ENDPOINT_COLUMNS = `id, account_id, name, description, validation_type, secret, previous_secret,
  previous_secret_expires_at, signature_header, tolerance_seconds, forward_url, custom_response, is_active, created_at,
  updated_at`;

/** The columns an update writes, in the order endpointMutableValues gives their values. */
export const ENDPOINT_MUTABLE_COLUMNS = [
  'name',
  'description',
  'secret',
  'previous_secret',
  'previous_secret_expires_at',
  'signature_header',
  'tolerance_seconds',
  'forward_url',
  'custom_response',
  'is_active',
  'updated_at',
] as const;

export const endpointFromRow = (r: EndpointRow): EndpointRecord => ({
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
  // Written from a validated CustomResponse: JSON text keeps the whole answer exactly, in one column
  // (storage/postgres/endpoints-migrations.ts says why not jsonb).
  customResponse: r.custom_response === null ? null : (JSON.parse(r.custom_response) as CustomResponse),
  isActive: r.is_active === true || r.is_active === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const customResponseText = (e: EndpointRecord): string | null =>
  e.customResponse === null ? null : JSON.stringify(e.customResponse);

/** The values of ENDPOINT_MUTABLE_COLUMNS, with the backend's flag. */
export const endpointMutableValues = <Flag>(e: EndpointRecord, flag: (on: boolean) => Flag) =>
  [
    e.name,
    e.description,
    e.secret,
    e.previousSecret,
    e.previousSecretExpiresAt,
    e.signatureHeader,
    e.toleranceSeconds,
    e.forwardUrl,
    customResponseText(e),
    flag(e.isActive),
    e.updatedAt,
  ] as const;

/** The values of ENDPOINT_COLUMNS, with the backend's flag. */
export const endpointValues = <Flag>(e: EndpointRecord, flag: (on: boolean) => Flag) =>
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
    flag(e.isActive),
    e.createdAt,
    e.updatedAt,
  ] as const;
