import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { runRules } from '../../../server/remediation/analyzer.ts';
import { payloadTooLargeRule } from '../../../server/remediation/rules/payload-too-large.ts';
import { receiverRefusedRule } from '../../../server/remediation/rules/receiver-refused.ts';
import type { RuleContext } from '../../../server/remediation/remediation-types.ts';
import type { Evidence } from '../../../server/remediation/remediation-schemas.ts';
import { context, hmacHex, SECRET } from './context.ts';

const refused = (
  reason: RuleContext['log']['verification']['reason'],
  log: Partial<RuleContext['log']> = {},
): RuleContext =>
  context({
    log: {
      verification: { scheme: 'hmac_sha256', result: 'invalid', reason, detail: null, matchedSecret: null },
      size: 10,
      declaredSize: 100_000,
      ...log,
    },
  });

const evidenceValue = (c: { evidence: Evidence[] }, label: string): string | undefined =>
  c.evidence.find((e): e is { label: string; value: string } => typeof e !== 'string' && e.label === label)?.value;

describe('receiver_refused: the receiver stopped reading before it could verify', () => {
  test('body_timeout names the idle limit and its setting', () => {
    const [c] = receiverRefusedRule(refused('body_timeout'));
    assert.equal(c!.code, 'receiver_refused');
    assert.equal(c!.title, 'The sender paused for more than 10000 ms in the middle of the body');
    assert.equal(evidenceValue(c!, 'Bytes received'), '10 of 100000 declared');
    assert.equal(evidenceValue(c!, 'Idle limit (receiver.bodyIdleTimeoutMs)'), '10000 ms');
    assert.ok(c!.steps.some((s) => s.includes('HOOKSCOPE_RECEIVER_BODY_IDLE_TIMEOUT')));
  });

  test('request_timeout names the request limit; server_busy the in-memory budget', () => {
    const [r] = receiverRefusedRule(refused('request_timeout', { declaredSize: null }));
    assert.equal(r!.title, 'The body did not arrive within 30000 ms of the headers');
    assert.equal(evidenceValue(r!, 'Bytes received'), '10');
    assert.ok(r!.steps.some((s) => s.includes('HOOKSCOPE_RECEIVER_REQUEST_TIMEOUT')));
    const [b] = receiverRefusedRule(refused('server_busy'));
    assert.equal(evidenceValue(b!, 'In-memory budget (receiver.maxInFlightBodyBytes)'), `${64 * 1024 * 1024} bytes`);
    assert.ok(b!.steps.some((s) => s.includes('HOOKSCOPE_RECEIVER_MAX_INFLIGHT_BYTES')));
  });

  test('silent for signature failures; signature rules stay silent for refusals', () => {
    assert.deepEqual(receiverRefusedRule(refused('no_matching_signature')), []);
    for (const reason of ['body_timeout', 'request_timeout', 'server_busy'] as const) {
      // The stored bytes are incomplete: no signature rule (nor the wrong_secret fallback) may speak.
      // (A signature of the pretty-printed bytes would otherwise be reported as body_modified.)
      const pretty = JSON.stringify({ a: 1 }, null, 2);
      const out = runRules(refused(reason, { headers: { 'x-webhook-signature': hmacHex(SECRET, pretty) } }));
      assert.equal(
        runRules(refused('no_matching_signature', { headers: { 'x-webhook-signature': hmacHex(SECRET, pretty) } }))
          .causes[0]?.code,
        'body_modified',
      );
      assert.deepEqual(
        out.causes.map((c) => c.code),
        ['receiver_refused'],
        reason,
      );
    }
  });

  test('payload_too_large uses the declared length when there was one, else says "over" what arrived', () => {
    const [declared] = payloadTooLargeRule(refused('payload_too_large', { size: 0, declaredSize: 5000 }));
    assert.equal(declared!.title, 'The body (5000 bytes) is over the 1024-byte limit');
    assert.equal(evidenceValue(declared!, 'Declared Content-Length'), '5000 bytes');
    assert.equal(evidenceValue(declared!, 'Bytes received'), '0 bytes');
    const [chunked] = payloadTooLargeRule(refused('payload_too_large', { size: 1500, declaredSize: null }));
    assert.equal(chunked!.title, 'The body (over 1500 bytes) is over the 1024-byte limit');
    assert.equal(evidenceValue(chunked!, 'Declared Content-Length'), undefined);
    assert.ok(chunked!.steps[0]!.includes('above 1500'));
  });
});
