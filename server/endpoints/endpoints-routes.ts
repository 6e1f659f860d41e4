import { ValidationError } from '../errors/app-errors.ts';
import { route, type RouteSpec } from '../http/route.ts';
import type { EndpointsService } from './endpoints-service.ts';
import type { TestDeliveryService } from './test-delivery-service.ts';
import {
  CreateEndpointBody,
  DeletedSchema,
  EndpointIdParams,
  EndpointListSchema,
  EndpointSchema,
  RegeneratedSchema,
  RegenerateSecretBody,
  SecretSetSchema,
  SetSecretBody,
  TestDeliveryBody,
  TestDeliverySchema,
  UpdateEndpointBody,
} from './endpoints-schemas.ts';

const UPDATABLE = [
  'name',
  'description',
  'isActive',
  'active',
  'forwardUrl',
  'signatureHeader',
  'toleranceSeconds',
  'customResponse',
];

export function endpointsRoutes(endpoints: EndpointsService, testDelivery: TestDeliveryService): RouteSpec[] {
  const tag = 'Endpoints';
  return [
    route({
      method: 'post',
      path: '/api/endpoints',
      summary: 'Create an endpoint',
      tag,
      body: CreateEndpointBody,
      responses: { 201: { description: 'Created', data: EndpointSchema } },
      handler: async ({ account, body }) => ({ status: 201, data: await endpoints.create(account, body) }),
    }),
    route({
      method: 'get',
      path: '/api/endpoints',
      summary: "List the account's endpoints",
      tag,
      acts: false,
      responses: { 200: { description: 'The endpoints, newest first', data: EndpointListSchema } },
      handler: async ({ account }) => ({ data: endpoints.list(account) }),
    }),
    route({
      method: 'get',
      path: '/api/endpoints/:endpointId',
      summary: 'Read an endpoint',
      tag,
      acts: false,
      params: EndpointIdParams,
      responses: { 200: { description: 'The endpoint', data: EndpointSchema } },
      handler: async ({ account, params }) => ({ data: endpoints.get(account, params.endpointId) }),
    }),
    route({
      method: 'patch',
      path: '/api/endpoints/:endpointId',
      summary:
        'Update name, description, active state (isActive or active), forwardUrl, signatureHeader, toleranceSeconds or customResponse',
      tag,
      params: EndpointIdParams,
      body: UpdateEndpointBody,
      responses: { 200: { description: 'The updated endpoint', data: EndpointSchema } },
      handler: async ({ account, params, body }) => {
        const { active, isActive, ...rest } = body;
        if (Object.values(body).every((v) => v === undefined)) {
          throw new ValidationError(
            `The request body must contain at least one of: ${UPDATABLE.join(', ')}.`,
            {
              allowed: UPDATABLE,
            },
            'NO_UPDATABLE_FIELDS',
          );
        }
        if (active !== undefined && isActive !== undefined && active !== isActive) {
          throw new ValidationError('isActive and active disagree; send only one of them.', { field: 'isActive' });
        }
        return { data: await endpoints.update(account, params.endpointId, { ...rest, isActive: isActive ?? active }) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/endpoints/:endpointId',
      summary: 'Delete an endpoint with its logs',
      tag,
      params: EndpointIdParams,
      responses: { 200: { description: 'Deleted', data: DeletedSchema } },
      handler: async ({ account, params }) => ({ data: await endpoints.delete(account, params.endpointId) }),
    }),
    route({
      method: 'post',
      path: '/api/endpoints/:endpointId/regenerate-secret',
      summary:
        'Regenerate the secret of an hmac_sha256 endpoint (returned once; the previous one stays valid for the grace period)',
      tag,
      params: EndpointIdParams,
      body: RegenerateSecretBody,
      bodyOptional: true,
      responses: { 200: { description: 'The new secret, shown only in this response', data: RegeneratedSchema } },
      errors: { 409: 'Not an hmac_sha256 endpoint' },
      handler: async ({ account, params, body }) => ({
        data: await endpoints.regenerateSecret(account, params.endpointId, body.webhookSecret),
      }),
    }),
    route({
      method: 'put',
      path: '/api/endpoints/:endpointId/secret',
      summary:
        "Set the signing secret of a signed endpoint to the sender's (Stripe, GitHub, Shopify, Slack, Standard Webhooks or hmac_sha256), keeping its URL; the previous secret stays valid for the grace period. The secret is never returned",
      tag,
      params: EndpointIdParams,
      body: SetSecretBody,
      responses: {
        200: {
          description: 'Set (or already that secret: nothing changed); until when the previous secret verifies',
          data: SecretSetSchema,
        },
      },
      errors: { 409: 'A validationType none endpoint: it checks no signature, so it has no secret' },
      handler: async ({ account, params, body }) => ({
        data: await endpoints.setSecret(account, params.endpointId, body.webhookSecret),
      }),
    }),
    route({
      method: 'post',
      path: '/api/endpoints/:endpointId/test-delivery',
      summary:
        "Send a signed test webhook: a sample for the endpoint's scheme (or the given payload), signed with its current secret, through the real receiver",
      tag,
      params: EndpointIdParams,
      body: TestDeliveryBody,
      bodyOptional: true,
      responses: { 200: { description: "The receiver's status and the stored log's id", data: TestDeliverySchema } },
      errors: {
        409: 'The endpoint is inactive',
        502: 'The receiver could not be reached',
        504: 'The receiver did not answer in time',
      },
      handler: async ({ account, params, body }) => ({
        data: await testDelivery.send(account, params.endpointId, body.payload),
      }),
    }),
  ];
}
