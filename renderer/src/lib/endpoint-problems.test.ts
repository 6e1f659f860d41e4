import { describe, expect, test } from 'vitest';
import { ApiError } from '../api/client.ts';
import { endpointProblem } from './endpoint-problems.ts';

/** A 400 as the engine sends it for one field (the zod issues), or for a rule checked apart (`details.field`). */
const issue = (field: string, message: string): ApiError =>
  new ApiError(400, 'VALIDATION_ERROR', `Invalid request body "${field}": ${message}`, {
    part: 'body',
    issues: [{ field, message }],
  });
const single = (field: string, message: string): ApiError => new ApiError(400, 'VALIDATION_ERROR', message, { field });

describe('endpointProblem: the engine’s refusal in the form’s words, under the box it names', () => {
  test.each([
    [issue('name', 'name must not be empty.'), { name: '  ' }, 'name', 'Give the endpoint a name.'],
    [
      issue('name', 'name must be at most 200 characters.'),
      { name: 'x'.repeat(201) },
      'name',
      'Keep the name to 200 characters or fewer.',
    ],
    [
      issue('description', 'description must be at most 2000 characters.'),
      {},
      'description',
      'Keep the description to 2,000 characters or fewer.',
    ],
    [
      issue('forwardUrl', 'forwardUrl must be an absolute http:// or https:// URL.'),
      { forwardUrl: 'localhost:3000' },
      'forwardUrl',
      'Enter a full address starting with http:// or https://, such as http://localhost:3000/webhooks.',
    ],
    [
      issue('forwardUrl', 'forwardUrl must be at most 2048 characters.'),
      { forwardUrl: `http://a/${'x'.repeat(2048)}` },
      'forwardUrl',
      'Keep the address to 2,048 characters or fewer.',
    ],
    [
      single('webhookSecret', 'webhookSecret is required for stripe endpoints.'),
      { webhookSecret: '' },
      'webhookSecret',
      'Enter the signing secret: Stripe shows it (whsec_…) under Developers > Webhooks, or stripe listen prints it.',
    ],
    [
      issue('customResponse.body', 'body must be empty: a 204 answer carries none.'),
      {},
      'customResponse',
      'Response body must be empty: a 204 answer carries none.',
    ],
    [
      issue('customResponse.headers.0.name', 'name must be a valid HTTP header name.'),
      {},
      'customResponse',
      'Response header 1’s name must be a valid HTTP header name.',
    ],
    [
      issue(
        'customResponse.headers.1.name',
        '"Set-Cookie" cannot be set: a custom response never sets a cookie (cookies ignore ports, so it would reach the Hookscope UI on this machine).',
      ),
      {},
      'customResponse',
      '"Set-Cookie" cannot be set: a custom response never sets a cookie (cookies ignore ports, so it would reach the Hookscope UI on this machine).',
    ],
  ] as const)('%s', (err, values, field, message) => {
    expect(endpointProblem(err, { validationType: 'stripe', values })).toEqual({ field, message });
  });

  test('a secret by the scheme’s own rules: Standard Webhooks says its form; others their limit', () => {
    const bad = single(
      'webhookSecret',
      'webhookSecret for standard_webhooks must be whsec_<base64> or plain base64 (padded, decoding to at least 1 byte), as the sender shows it.',
    );
    expect(endpointProblem(bad, { validationType: 'standard_webhooks', values: { webhookSecret: 'abc!' } })).toEqual({
      field: 'webhookSecret',
      message: 'A Standard Webhooks secret is whsec_ followed by base64, exactly as the sending service shows it.',
    });
    expect(
      endpointProblem(issue('webhookSecret', 'webhookSecret must be at most 1000 characters.'), {
        validationType: 'github',
        values: { webhookSecret: 'x'.repeat(1001) },
      }),
    ).toEqual({ field: 'webhookSecret', message: 'Keep the secret to 1,000 characters or fewer.' });
    expect(
      endpointProblem(issue('webhookSecret', 'webhookSecret must not be empty.'), {
        validationType: 'hmac_sha256',
        values: { webhookSecret: '' },
      }).message,
    ).toBe('Enter the signing secret: your service signs with it, or Generate makes one.');
  });

  test('a refusal about no box of the form is one sentence for the whole form: the engine’s, or that it did not answer', () => {
    const none = new ApiError(
      409,
      'SECRET_NOT_APPLICABLE',
      'Endpoint ep_1 checks no signature (validationType none), so it has no secret to set.',
      {
        validationType: 'none',
      },
    );
    expect(endpointProblem(none, { validationType: 'none', values: {} })).toEqual({
      field: null,
      message: none.message,
    });
    // A field the forms do not show (signatureHeader is set by the API or the CLI).
    const other = issue('signatureHeader', 'signatureHeader must be a valid HTTP header name.');
    expect(endpointProblem(other, { validationType: 'hmac_sha256', values: {} })).toEqual({
      field: null,
      message: other.message,
    });
    expect(
      endpointProblem(new ApiError(0, 'NETWORK_ERROR', 'http://127.0.0.1:1 does not answer: ECONNREFUSED'), {
        validationType: 'none',
        values: {},
      }),
    ).toEqual({ field: null, message: 'The engine did not answer, so nothing was saved. Try again once it runs.' });
  });
});
