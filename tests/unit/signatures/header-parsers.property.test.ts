import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import fc from 'fast-check';
import { parseSlackSignature } from '../../../server/signatures/slack.ts';
import { parseStandardSignatures } from '../../../server/signatures/standard-webhooks.ts';
import { parseUnixSeconds } from '../../../server/signatures/timestamp-tolerance.ts';
import { parseStripeHeader } from '../../../server/signatures/stripe.ts';
import { verify } from '../../../server/signatures/registry.ts';
import type { SchemeId } from '../../../server/signatures/scheme-ids.ts';
import type { VerificationInput } from '../../../server/signatures/verification.ts';

const NOW_MS = 1_700_000_000_000;
const SECRET: Partial<Record<SchemeId, string>> = {
  stripe: 'whsec_property_secret',
  slack: 'slack-property-secret',
  standard_webhooks: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
};

// Strings near the real formats find more edge cases than uniform noise alone.
const token = fc.constantFrom(
  't=',
  'v1=',
  'v0=',
  'v1,',
  'v1a,',
  ',',
  ' ',
  '=',
  '1700000000',
  'sha256=',
  'AAAA',
  '==',
  'ff',
  '\t',
  '\u00e9',
);
const headerish = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.array(token, { maxLength: 12 }).map((a) => a.join('')),
);

const input = (scheme: SchemeId, headers: Record<string, string>, body: string): VerificationInput => ({
  rawBody: Buffer.from(body),
  headers,
  secrets: [{ value: SECRET[scheme]!, kind: 'current' }],
  signatureHeader: null,
  toleranceSeconds: null,
  nowMs: NOW_MS,
});

describe('header parsers and verifiers on arbitrary input', () => {
  test('the parsers never throw', () => {
    fc.assert(
      fc.property(headerish, (s) => {
        parseStripeHeader(s);
        parseSlackSignature(s);
        parseStandardSignatures(s);
        parseUnixSeconds(s);
      }),
      { numRuns: 2000 },
    );
  });

  test('stripe: an arbitrary Stripe-Signature never throws and is never valid', () => {
    fc.assert(
      fc.property(headerish, fc.string(), (h, body) => {
        const r = verify('stripe', input('stripe', { 'stripe-signature': h }, body));
        assert.notEqual(r.result, 'valid');
        assert.ok(r.reason);
      }),
      { numRuns: 1000 },
    );
  });

  test('slack: arbitrary signature and timestamp headers never throw and are never valid', () => {
    fc.assert(
      fc.property(headerish, fc.oneof(headerish, fc.constant(String(NOW_MS / 1000))), fc.string(), (sig, ts, body) => {
        const r = verify('slack', input('slack', { 'x-slack-signature': sig, 'x-slack-request-timestamp': ts }, body));
        assert.notEqual(r.result, 'valid');
        assert.ok(r.reason);
      }),
      { numRuns: 1000 },
    );
  });

  test('standard_webhooks: arbitrary id, timestamp and signature headers never throw and are never valid', () => {
    fc.assert(
      fc.property(
        headerish,
        fc.oneof(headerish, fc.constant(String(NOW_MS / 1000))),
        headerish,
        fc.string(),
        (id, ts, sig, body) => {
          const r = verify(
            'standard_webhooks',
            input('standard_webhooks', { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': sig }, body),
          );
          assert.notEqual(r.result, 'valid');
          assert.ok(r.reason);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
