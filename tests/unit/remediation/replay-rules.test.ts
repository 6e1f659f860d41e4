import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { runRules } from '../../../server/remediation/analyzer.ts';
import { targetErrorRule } from '../../../server/remediation/rules/target-error.ts';
import { targetRejectedSignatureRule } from '../../../server/remediation/rules/target-rejected-signature.ts';
import { targetTimeoutRule } from '../../../server/remediation/rules/target-timeout.ts';
import { targetUnreachableRule } from '../../../server/remediation/rules/target-unreachable.ts';
import { unsafeSubPathRule } from '../../../server/remediation/rules/unsafe-sub-path.ts';
import { context, replay, valueOf } from './context.ts';

const accepted = {
  scheme: 'stripe' as const,
  result: 'valid' as const,
  reason: null,
  detail: null,
  matchedSecret: 'current' as const,
};
const ok = (replays: Parameters<typeof context>[0] = {}) =>
  context({ ...replays, log: { status: 'success', verification: accepted }, endpoint: { scheme: 'stripe' } });

describe('replay and forward failures (ReplayRecord data)', () => {
  test('target_unreachable: asks whether the dev server runs on host:port', () => {
    const ctx = ok({
      replays: [replay({ error: { code: 'TARGET_UNREACHABLE', message: 'connect ECONNREFUSED 127.0.0.1:3000' } })],
    });
    const [c] = targetUnreachableRule(ctx);
    assert.equal(c?.code, 'target_unreachable');
    assert.ok(c.steps[0]!.includes('localhost:3000'));
    assert.equal(valueOf(c.evidence, 'Error'), 'TARGET_UNREACHABLE: connect ECONNREFUSED 127.0.0.1:3000');
  });
  test('target_unreachable: the curl to try by hand quotes the target for the shell', () => {
    const error = { code: 'TARGET_UNREACHABLE', message: 'connect ECONNREFUSED 127.0.0.1:3000' };
    const targetUrl = "http://localhost:3000/hook?a=1&b=it's";
    const [c] = targetUnreachableRule(ok({ replays: [replay({ error, targetUrl })] }));
    assert.equal(c?.steps[2], `Try it by hand: curl -v 'http://localhost:3000/hook?a=1&b=it'\\''s'`);
  });
  test('target_timeout', () => {
    const ctx = ok({
      replays: [replay({ error: { code: 'TARGET_TIMEOUT', message: 'no answer in 10000 ms' }, responseTime: 10000 })],
    });
    assert.equal(targetTimeoutRule(ctx)[0]?.code, 'target_timeout');
    assert.deepEqual(targetUnreachableRule(ctx), []);
  });
  test('target_rejected_signature: a 401 to a replay of a signed scheme suggests resign; not for unsigned endpoints', () => {
    const replays = [replay({ status: 401 }), replay({ id: 'rp_0', status: 401, trigger: 'forward' })];
    const [c] = targetRejectedSignatureRule(ok({ replays }));
    assert.equal(c?.code, 'target_rejected_signature');
    assert.ok(c.steps[0]!.includes('resign'));
    assert.ok(c.evidence.includes('2 attempts failed this way.'));
    assert.deepEqual(targetRejectedSignatureRule(context({ replays, endpoint: { scheme: 'none' } })), []);
  });
  test('target_error: 5xx is the handler failing; a 404 points at the path', () => {
    assert.match(targetErrorRule(ok({ replays: [replay({ status: 502 })] }))[0]!.title, /failed with 502/);
    assert.match(targetErrorRule(ok({ replays: [replay({ status: 404 })] }))[0]!.steps[0]!, /target path/);
    assert.deepEqual(targetErrorRule(ok({ replays: [replay({ status: 200 }), replay({ status: 401 })] })), []);
  });
  test("unsafe_sub_path: a forward not sent is explained as such; the sender's words in its message prove no timeout or refusal", () => {
    const message =
      'Log log_1 was not forwarded, and will not be: The sub-path "/timed-out/refused/ETIMEDOUT/../x" (segment "..") cannot be appended below the path "/hook": ' +
      'it contains a dot segment ("." or ".."), plain or percent-encoded, that would lead out of it. A request is never sent outside the forwardUrl; the capture is kept as it arrived.';
    const ctx = ok({
      replays: [
        replay({ trigger: 'forward', status: null, responseTime: 0, error: { code: 'UNSAFE_SUB_PATH', message } }),
      ],
    });
    const [c] = unsafeSubPathRule(ctx);
    assert.equal(c?.code, 'unsafe_sub_path');
    assert.equal(c.confidence, 1);
    assert.equal(valueOf(c.evidence, 'Error'), `UNSAFE_SUB_PATH: ${message}`);
    assert.deepEqual(targetTimeoutRule(ctx), []);
    assert.deepEqual(targetUnreachableRule(ctx), []);
    assert.deepEqual(
      runRules(ctx).causes.map((x) => x.code),
      ['unsafe_sub_path'],
    );
  });
  test('an accepted delivery with a failed replay gets only replay causes and a summary saying so', () => {
    const out = runRules(
      ok({
        replays: [
          replay({ status: 200 }),
          replay({ error: { code: 'TARGET_UNREACHABLE', message: 'getaddrinfo ENOTFOUND devbox' } }),
        ],
      }),
    );
    assert.deepEqual(
      out.causes.map((c) => c.code),
      ['target_unreachable'],
    );
    assert.match(
      out.summary,
      /^The delivery was accepted but a replay or forward of it failed\. Most likely: Nothing answered at localhost:3000/,
    );
  });
});
