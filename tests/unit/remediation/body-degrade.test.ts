import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import fc from 'fast-check';
import { runRules } from '../../../server/remediation/analyzer.ts';
import { bodyVariants } from '../../../server/remediation/rules/body-variants.ts';
import { jsonShape } from '../../../server/support/json-shape.ts';
import { FALLBACK_RULES, RULES } from '../../../server/remediation/rules/all-rules.ts';
import type { RuleContext } from '../../../server/remediation/remediation-types.ts';
import { context, hmacHex } from './context.ts';

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const names = (body: string, limits?: { depth: number; prettyChars: number }) =>
  bodyVariants(Buffer.from(body), limits).map((v) => v.name);

describe('jsonShape', () => {
  test('depth counts brackets outside strings; escaped quotes do not end a string', () => {
    assert.equal(jsonShape('{"a":[1,{"b":[]}]}', 100).depth, 4);
    assert.equal(jsonShape('["[[[[", "\\"[[[", {"k]}": "}}}"}]', 100).depth, 2);
    assert.equal(jsonShape('"just a string [[["', 100).depth, 0);
    assert.equal(jsonShape('', 100).depth, 0);
  });

  test('the scan stops just past maxDepth', () => {
    assert.equal(jsonShape(deep(500_000), 1000).depth, 1001);
    assert.equal(jsonShape(deep(1000), 1000).depth, 1000);
  });

  test('property: depth is exact and prettyChars bounds the pretty form, for any JSON value (compact or pretty input)', () => {
    const depthOf = (v: unknown): number =>
      v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (value, prettyInput) => {
        const text = JSON.stringify(value, null, prettyInput ? 2 : undefined);
        const shape = jsonShape(text, 1000);
        assert.equal(shape.depth, depthOf(value));
        assert.ok(shape.prettyChars >= JSON.stringify(value, null, 2).length, text);
      }),
      { numRuns: 500 },
    );
  });
});

describe('bodyVariants on bodies it cannot re-serialise', () => {
  test('JSON nested past the depth limit is opaque to the JSON variants; the line-ending variants remain', () => {
    // Spaces between brackets: compact_json would differ from the body if it were computed.
    const spaced = (n: number) => `${'[ '.repeat(n)}${' ]'.repeat(n)}`;
    assert.deepEqual(names(spaced(1000)), ['trailing_newline_added', 'compact_json', 'pretty_json']);
    assert.deepEqual(names(spaced(1001)), ['trailing_newline_added']);
    assert.deepEqual(names(`${deep(500_000)}\n`), ['trailing_newline_removed', 'trailing_newline_added', 'lf_to_crlf']);
  });

  test('past the pretty-size limit only pretty_json is left out', () => {
    const body = '{"a":[1,2]}';
    assert.deepEqual(names(body), ['trailing_newline_added', 'pretty_json']);
    assert.deepEqual(names(body, { depth: 1000, prettyChars: 20 }), ['trailing_newline_added']);
    assert.deepEqual(names('{ "a" : 1 }', { depth: 1000, prettyChars: 5 }), ['trailing_newline_added', 'compact_json']);
  });

  test('a RangeError from JSON.stringify drops the JSON variants instead of throwing (limits lifted)', () => {
    assert.deepEqual(names(deep(500_000), { depth: Number.POSITIVE_INFINITY, prettyChars: Number.POSITIVE_INFINITY }), [
      'trailing_newline_added',
    ]);
  });

  test('a wide body a few hundred levels deep: compact_json is offered, pretty_json (gigabytes of indentation) is not', () => {
    const body = `${'['.repeat(300)}${Array(500_000).fill('1').join(', ')}${']'.repeat(300)}`;
    assert.deepEqual(names(body), ['trailing_newline_added', 'compact_json']);
  });
});

describe('runRules degrades', () => {
  test('a rule that throws is skipped and named in the summary; the other causes stay', () => {
    const ctx = context({ log: { headers: { 'x-webhook-signature': hmacHex('another secret', '{"a":1}') } } });
    const boom = {
      name: 'exploding_rule',
      run: (_ctx: RuleContext) => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    };
    const out = runRules(ctx, [...RULES.slice(0, 2), boom, ...RULES.slice(2)], FALLBACK_RULES);
    assert.deepEqual(
      out.causes.map((c) => c.code),
      ['wrong_secret'],
    );
    assert.equal(
      out.summary,
      'Verification (hmac_sha256) failed with no_matching_signature. Most likely: The sender signs with a different secret than this endpoint has (confidence 70%). ' +
        'Skipped, as they could not handle this delivery: exploding_rule (RangeError: Maximum call stack size exceeded).',
    );
  });

  test('a throwing fallback rule is skipped too', () => {
    const ctx = context({ log: { headers: { 'x-webhook-signature': hmacHex('another secret', '{"a":1}') } } });
    const out = runRules(ctx, RULES, [
      {
        name: 'bad_fallback',
        run: () => {
          throw new Error('nope');
        },
      },
    ]);
    assert.deepEqual(out.causes, []);
    assert.match(out.summary, / Skipped, as they could not handle this delivery: bad_fallback \(Error: nope\)\.$/);
  });

  test('a deep JSON body: every rule runs, nothing is skipped', () => {
    const body = Buffer.from(deep(500_000));
    const out = runRules(
      context({
        log: { body, size: body.length, headers: { 'x-webhook-signature': hmacHex('another secret', body) } },
      }),
    );
    assert.deepEqual(
      out.causes.map((c) => c.code),
      ['wrong_secret'],
    );
    assert.equal(out.summary.includes('Skipped'), false, out.summary);
  });
});
