import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { stripeSignatureHeader } from '../../../server/signatures/stripe.ts';
import { runRules } from '../../../server/remediation/analyzer.ts';
import { bodyModifiedRule } from '../../../server/remediation/rules/body-modified.ts';
import { bodyVariants } from '../../../server/remediation/rules/body-variants.ts';
import { encodingMismatchRule } from '../../../server/remediation/rules/encoding-mismatch.ts';
import { payloadTooLargeRule } from '../../../server/remediation/rules/payload-too-large.ts';
import { previousSecretRule } from '../../../server/remediation/rules/previous-secret.ts';
import { timestampSkewRule } from '../../../server/remediation/rules/timestamp-skew.ts';
import { wrongHeaderNameRule } from '../../../server/remediation/rules/wrong-header-name.ts';
import { wrongProviderRule } from '../../../server/remediation/rules/wrong-provider.ts';
import { wrongSecretRule } from '../../../server/remediation/rules/wrong-secret.ts';
import { context, hmacHex, SECRET, T0, valueOf } from './context.ts';

const missing = {
  scheme: 'hmac_sha256' as const,
  result: 'invalid' as const,
  reason: 'missing_header' as const,
  detail: null,
  matchedSecret: null,
};

describe('previous_secret', () => {
  const previous = { value: 'old', replacedAt: T0 - 25 * 3600_000, expiredAt: T0 - 3600_000 };
  test('a signature made with the previous secret, after its grace, is proven and dated', () => {
    const ctx = context({
      log: { headers: { 'x-webhook-signature': hmacHex('old', '{"a":1}') } },
      endpoint: { previous },
    });
    const [c] = previousSecretRule(ctx);
    assert.equal(c?.code, 'previous_secret');
    assert.equal(valueOf(c.evidence, 'Secret rotated at'), new Date(previous.replacedAt).toISOString());
    assert.match(valueOf(c.evidence, 'Delivery received at')!, /1 h after the grace period ended/);
    // The fix names the way that works for every type, a provider's secret included: set it on the same endpoint.
    assert.match(
      c.steps[1]!,
      /set the old value again \(PUT \/api\/endpoints\/<id>\/secret, `hookscope endpoints set-secret`\)/,
    );
  });
  test('silent before the grace ended (the previous secret was accepted then) and for another secret', () => {
    const headers = { 'x-webhook-signature': hmacHex('old', '{"a":1}') };
    assert.deepEqual(
      previousSecretRule(context({ log: { headers }, endpoint: { previous: { ...previous, expiredAt: T0 + 1 } } })),
      [],
    );
    assert.deepEqual(
      previousSecretRule(
        context({ log: { headers: { 'x-webhook-signature': hmacHex('other', '{"a":1}') } }, endpoint: { previous } }),
      ),
      [],
    );
  });
});

describe('encoding_mismatch', () => {
  test('hmac_sha256: the base64 of the hex text is recognised, and hex is the form to send', () => {
    const hex = hmacHex(SECRET, '{"a":1}');
    const sent = Buffer.from(hex).toString('base64');
    const ctx = context({
      log: { headers: { 'x-webhook-signature': sent }, verification: { ...missing, reason: 'malformed_header' } },
    });
    const [c] = encodingMismatchRule(ctx);
    assert.equal(c?.code, 'encoding_mismatch');
    assert.equal(valueOf(c.evidence, 'Sent (base64 of the hex text, no prefix)'), sent);
    assert.equal(valueOf(c.evidence, 'Expected (hex, no prefix)'), hex);
  });
  test('stripe: base64 in v1 rewrites to hex and verifies; a wrong secret does not', () => {
    const body = Buffer.from('{"id":"evt"}');
    const good = stripeSignatureHeader('whsec_k', body, Math.floor(T0 / 1000));
    const hex = /v1=([0-9a-f]+)/.exec(good)![1]!;
    const header = good.replace(hex, Buffer.from(hex, 'hex').toString('base64'));
    const stripe = (secret: string) =>
      context({
        log: {
          body,
          headers: { 'stripe-signature': header },
          verification: { ...missing, scheme: 'stripe', reason: 'malformed_header' },
        },
        endpoint: { scheme: 'stripe', secrets: [{ value: secret, kind: 'current' }] },
      });
    assert.equal(encodingMismatchRule(stripe('whsec_k'))[0]?.code, 'encoding_mismatch');
    assert.deepEqual(encodingMismatchRule(stripe('whsec_other')), []);
  });
});

describe('body_modified', () => {
  test('variants: compact, pretty, trailing newline both ways, CRLF <-> LF; never the body itself', () => {
    const names = (s: string) => bodyVariants(Buffer.from(s)).map((v) => v.name);
    assert.deepEqual(names('{"a":1}'), ['trailing_newline_added', 'pretty_json']);
    // pretty_json is the same bytes as trailing_newline_removed here: the smaller change names it.
    assert.deepEqual(names('{\n  "a": 1\n}\n'), [
      'trailing_newline_removed',
      'trailing_newline_added',
      'lf_to_crlf',
      'compact_json',
    ]);
    assert.deepEqual(names('a\r\nb'), ['trailing_newline_added', 'crlf_to_lf']);
  });
  for (const [variant, sent, signed] of [
    ['trailing_newline_removed', '{"a":1}\n', '{"a":1}'],
    ['trailing_newline_added', 'plain text', 'plain text\n'],
    ['crlf_to_lf', 'line1\r\nline2', 'line1\nline2'],
    ['pretty_json', '{"a":[1,2]}', '{\n  "a": [\n    1,\n    2\n  ]\n}'],
  ] as const) {
    test(`names the variant ${variant}`, () => {
      const ctx = context({
        log: { body: Buffer.from(sent), headers: { 'x-webhook-signature': hmacHex(SECRET, signed) } },
      });
      const [c] = bodyModifiedRule(ctx);
      assert.equal(valueOf(c!.evidence, 'Variant'), variant);
    });
  }
});

describe('timestamp_skew', () => {
  test('without a readable timestamp it still reports, with the verifier detail', () => {
    const ctx = context({
      log: {
        verification: {
          ...missing,
          scheme: 'stripe',
          reason: 'timestamp_outside_tolerance',
          detail: 'The timestamp is 999 s old; the tolerance is 300 s.',
        },
      },
      endpoint: { scheme: 'stripe' },
    });
    const [c] = timestampSkewRule(ctx);
    assert.equal(c?.code, 'timestamp_skew');
    assert.ok(c.evidence.includes('The timestamp is 999 s old; the tolerance is 300 s.'));
  });
  test('uses the endpoint tolerance', () => {
    const t = Math.floor(T0 / 1000) - 120;
    const ctx = context({
      log: {
        headers: { 'stripe-signature': `t=${t},v1=${'a'.repeat(64)}` },
        verification: { ...missing, scheme: 'stripe', reason: 'timestamp_outside_tolerance' },
      },
      endpoint: { scheme: 'stripe', toleranceSeconds: 60 },
    });
    const [c] = timestampSkewRule(ctx);
    assert.equal(valueOf(c!.evidence, 'Skew'), '120 s old');
    assert.equal(valueOf(c!.evidence, 'Tolerance'), '60 s');
  });
});

describe('wrong_provider and wrong_header_name', () => {
  test('a Shopify header on an hmac endpoint suggests shopify', () => {
    const ctx = context({ log: { verification: missing, headers: { 'x-shopify-hmac-sha256': 'abc' } } });
    const [c] = wrongProviderRule(ctx);
    assert.equal(valueOf(c!.evidence, 'Suggested validationType'), 'shopify');
  });
  test('a Stripe header on an hmac endpoint is proven when it verifies as stripe with the secret', () => {
    const body = Buffer.from('{"id":"evt"}');
    const ctx = context({
      log: {
        body,
        verification: missing,
        headers: { 'stripe-signature': stripeSignatureHeader(SECRET, body, Math.floor(T0 / 1000)) },
      },
    });
    const [c] = wrongProviderRule(ctx);
    assert.equal(valueOf(c!.evidence, 'Suggested validationType'), 'stripe');
    assert.ok(c!.confidence > 0.95);
  });
  test('a header that only looks like an HMAC is a weaker suspicion', () => {
    const ctx = context({
      log: {
        verification: missing,
        headers: { 'x-sig': hmacHex('not-the-secret', 'x'), 'content-type': 'application/json' },
      },
    });
    const [c] = wrongHeaderNameRule(ctx);
    assert.equal(valueOf(c!.evidence, 'Header carrying the signature'), 'x-sig');
    assert.equal(c!.confidence, 0.6);
  });
  test('a custom signatureHeader is the one named as configured', () => {
    const ctx = context({
      log: { verification: missing, headers: { 'x-webhook-signature': hmacHex(SECRET, '{"a":1}') } },
      endpoint: { signatureHeader: 'X-Acme-Signature' },
    });
    const [c] = wrongHeaderNameRule(ctx);
    assert.equal(valueOf(c!.evidence, 'Configured signatureHeader'), 'X-Acme-Signature');
    assert.equal(valueOf(c!.evidence, 'Header carrying the signature'), 'x-webhook-signature');
  });
});

describe('wrong_secret and the analyzer', () => {
  test('an erased previous secret cannot be proven: wrong_secret names the rotation instead', () => {
    const erased = { value: null, replacedAt: T0 - 25 * 3600_000, expiredAt: T0 - 3600_000 };
    const ctx = context({
      log: { headers: { 'x-webhook-signature': hmacHex('old', '{"a":1}') } },
      endpoint: { previous: erased },
    });
    assert.deepEqual(previousSecretRule(ctx), []);
    const [c] = wrongSecretRule(ctx, []);
    assert.equal(c?.code, 'wrong_secret');
    assert.match(c.steps.at(-1)!, /set the sender's secret on it \(`hookscope endpoints set-secret <id>`/);
    assert.equal(c.evidence[0], 'The signature matches no HMAC of the stored body with the current secret.');
    assert.equal(
      valueOf(c.evidence, 'Secret rotated'),
      `at ${new Date(erased.replacedAt).toISOString()}; the previous secret stopped being accepted at ${new Date(erased.expiredAt).toISOString()} and was erased, so a sender still using it cannot be proven`,
    );
  });

  test('wrong_secret only when nothing else explains the mismatch', () => {
    const ctx = context({ log: { headers: { 'x-webhook-signature': hmacHex('other', '{"a":1}') } } });
    assert.equal(wrongSecretRule(ctx, [])[0]?.code, 'wrong_secret');
    assert.deepEqual(
      wrongSecretRule(ctx, [{ code: 'body_modified', title: '', confidence: 1, evidence: [], steps: [] }]),
      [],
    );
  });
  test('payload_too_large names the limit; the analyzer sorts by confidence and attaches snippets', () => {
    const ctx = context({
      log: { size: 5000, truncated: true, verification: { ...missing, reason: 'payload_too_large' } },
    });
    assert.equal(valueOf(payloadTooLargeRule(ctx)[0]!.evidence, 'Limit (maxBodyBytes)'), '1024 bytes');
    const out = runRules(
      context({
        log: { verification: missing, headers: { 'x-hub-signature-256': `sha256=${hmacHex(SECRET, '{"a":1}')}` } },
      }),
    );
    // With the github verifier the value proves a GitHub delivery (0.97), ahead of the header-name fix (0.96).
    assert.deepEqual(
      out.causes.map((c) => c.code),
      ['wrong_provider', 'wrong_header_name'],
    );
    assert.match(out.causes[0]!.snippets.python, /hmac\.compare_digest/);
    assert.match(out.causes[0]!.snippets.node, /X-Webhook-Signature/);
    assert.match(
      out.summary,
      /^Verification \(hmac_sha256\) failed with missing_header\. Most likely: This looks like a github delivery/,
    );
  });
  test('no cause: the summary says so', () => {
    const out = runRules(
      context({
        log: {
          verification: { ...missing, reason: 'malformed_header' },
          headers: { 'x-webhook-signature': 'nonsense' },
        },
      }),
    );
    assert.deepEqual(out.causes, []);
    assert.match(out.summary, /no rule could prove a cause/);
  });
});
