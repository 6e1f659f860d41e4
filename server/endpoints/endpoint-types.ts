import type { CustomResponse } from './custom-response.ts';
import type { ValidationType } from './validation-types.ts';

/** An endpoint as stored, secrets included. Never leaves the engine as is. */
export interface EndpointRecord {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  validationType: ValidationType;
  secret: string | null;
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
  signatureHeader: string | null;
  toleranceSeconds: number | null;
  forwardUrl: string | null;
  customResponse: CustomResponse | null;
  isActive: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface CreateEndpointInput {
  name: string;
  validationType: ValidationType;
  webhookSecret?: string | null;
  description?: string | null;
  forwardUrl?: string | null;
  signatureHeader?: string | null;
  toleranceSeconds?: number | null;
  customResponse?: CustomResponse | null;
}

export interface UpdateEndpointInput {
  name?: string;
  description?: string | null;
  isActive?: boolean;
  forwardUrl?: string | null;
  signatureHeader?: string | null;
  toleranceSeconds?: number | null;
  customResponse?: CustomResponse | null;
}

/** What the receiver needs to accept and verify a delivery, from memory. */
export interface ReceiverEndpoint {
  id: string;
  accountId: string;
  validationType: ValidationType;
  isActive: boolean;
  secrets: { value: string; kind: 'current' | 'previous' }[];
  signatureHeader: string | null;
  toleranceSeconds: number | null;
  /** Where accepted deliveries are forwarded as they arrive; null: not forwarded. */
  forwardUrl: string | null;
  /** The answer to accepted deliveries; null: the default `{ id }`. */
  customResponse: CustomResponse | null;
}
