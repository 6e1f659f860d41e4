import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from '../../helpers/node-test.ts';
import { BODY_DIFF_LIMITS, diffBodies } from '../../../server/compare/body-diff.ts';
import { jsonPath } from '../../../server/compare/json-diff.ts';
import { diffNamedValues } from '../../../server/compare/named-values-diff.ts';

const body = (id: string, text: string | Buffer) => ({ id, bytes: Buffer.isBuffer(text) ? text : Buffer.from(text) });
const diff = (a: string | Buffer, b: string | Buffer) => diffBodies(body('log_a', a), body('log_b', b));
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

describe('body diff', () => {
  test('JSON: changed, added and removed members, nested, arrays by index, in walk order', () => {
    const d = diff(
      '{"id":"evt_1","data":{"object":{"amount":1000,"meta":{"k":"v"}}},"items":[1,2],"old":true}',
      '{"id":"evt_1","data":{"object":{"amount":2500,"meta":{"k":"w","n":{"deep":[1]}}}},"items":[1,3,4],"new":null}',
    );
    assert.equal(d.format, 'json');
    assert.equal(d.changed, true);
    assert.equal(d.limited, null);
    assert.deepEqual(d.json, [
      { path: '$.data.object.amount', kind: 'changed', a: '1000', b: '2500' },
      { path: '$.data.object.meta.k', kind: 'changed', a: '"v"', b: '"w"' },
      { path: '$.data.object.meta.n', kind: 'added', a: null, b: '{"deep":[1]}' },
      { path: '$.items[1]', kind: 'changed', a: '2', b: '3' },
      { path: '$.items[2]', kind: 'added', a: null, b: '4' },
      { path: '$.old', kind: 'removed', a: 'true', b: null },
      { path: '$.new', kind: 'added', a: null, b: 'null' },
    ]);
    assert.deepEqual([d.patch, d.changes], ['', []], 'no line diff for JSON');
  });

  test('JSON: a member that changes type is one change; so is a top-level scalar or shape change', () => {
    assert.deepEqual(diff('{"a":{"x":1}}', '{"a":[1]}').json, [
      { path: '$.a', kind: 'changed', a: '{"x":1}', b: '[1]' },
    ]);
    assert.deepEqual(diff('{"a":null}', '{"a":{}}').json, [{ path: '$.a', kind: 'changed', a: 'null', b: '{}' }]);
    assert.deepEqual(diff('"on"', '"off"').json, [{ path: '$', kind: 'changed', a: '"on"', b: '"off"' }]);
    assert.deepEqual(diff('{}', '[]').json, [{ path: '$', kind: 'changed', a: '{}', b: '[]' }]);
  });

  test('JSON: members named like Object.prototype are data, and odd keys are quoted in the path', () => {
    const d = diff('{"__proto__":{"x":1},"constructor":1,"a b":1}', '{"toString":2,"__proto__":{"x":2},"a b":2}');
    assert.deepEqual(d.json, [
      { path: '$.__proto__.x', kind: 'changed', a: '1', b: '2' },
      { path: '$.constructor', kind: 'removed', a: '1', b: null },
      { path: '$["a b"]', kind: 'changed', a: '1', b: '2' },
      { path: '$.toString', kind: 'added', a: null, b: '2' },
    ]);
    assert.equal(jsonPath(['a', 0, 'b-c', '$ok', '1x']), '$.a[0]["b-c"].$ok["1x"]');
  });

  test('JSON: only spacing differs: the bytes changed, the structure did not', () => {
    const d = diff('{"a":1}', '{ "a": 1 }\n');
    assert.deepEqual([d.format, d.changed, d.json], ['json', true, []]);
  });

  test('JSON: at most 500 changes, then limited; a long value is cut', () => {
    const many = (v: number) => JSON.stringify(Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`k${i}`, v])));
    const d = diff(many(1), many(2));
    assert.equal(d.json.length, BODY_DIFF_LIMITS.maxJsonChanges);
    assert.equal(d.limited, 'too_many_changes');
    const long = diff('{"a":1}', JSON.stringify({ a: 'x'.repeat(2000) }));
    assert.equal(long.json[0]!.b, `"${'x'.repeat(999)}…`);
  });

  test('JSON nested deeper than the walk can go is compared as text', () => {
    const nested = (inner: string) => `${'['.repeat(50_000)}${inner}${']'.repeat(50_000)}`;
    const d = diff(nested(''), nested('1'));
    assert.equal(d.format, 'text');
    assert.equal(d.limited, null);
    assert.deepEqual(
      d.changes.map((c) => [c.added, c.removed, c.count]),
      [
        [false, true, 1],
        [true, false, 1],
      ],
    );
  });

  test('text: a unified patch and runs of lines', () => {
    const d = diff('line1\nline2\nline3\n', 'line1\nline2 changed\nline3\n');
    assert.equal(d.format, 'text');
    assert.equal(
      d.patch,
      '===================================================================\n--- a/log_a\n+++ b/log_b\n@@ -1,3 +1,3 @@\n line1\n-line2\n+line2 changed\n line3\n',
    );
    assert.deepEqual(d.changes, [
      { value: 'line1\n', added: false, removed: false, count: 1 },
      { value: 'line2\n', added: false, removed: true, count: 1 },
      { value: 'line2 changed\n', added: true, removed: false, count: 1 },
      { value: 'line3\n', added: false, removed: false, count: 1 },
    ]);
    assert.deepEqual(d.json, []);
  });

  test('text: over 256 KiB is too_large, over 1000 changed lines too_many_changes; neither diffs lines', () => {
    const big = diff('a'.repeat(BODY_DIFF_LIMITS.maxTextBytes + 1), 'b');
    assert.deepEqual([big.format, big.limited, big.patch, big.changes], ['text', 'too_large', '', []]);
    const lines = (p: string) => Array.from({ length: 600 }, (_, i) => `${p}${i}`).join('\n');
    const busy = diff(lines('a'), lines('b'));
    assert.deepEqual([busy.format, busy.limited, busy.patch, busy.changes], ['text', 'too_many_changes', '', []]);
  });

  test('binary: sizes and hashes, no diff', () => {
    const a = Buffer.from([0xff, 0x00, 0x01]);
    const b = Buffer.from('plain text');
    assert.deepEqual(diff(a, b), {
      changed: true,
      format: 'binary',
      sizes: { a: 3, b: 10 },
      sha256: { a: sha(a), b: sha(b) },
      json: [],
      patch: '',
      changes: [],
      limited: null,
    });
  });
});

describe('named values diff', () => {
  test('headers: names match in any case and show as received; repeated values compare as a list', () => {
    const a: [string, string][] = [
      ['Content-Type', 'application/json'],
      ['X-Multi', '1'],
      ['X-Old', 'gone'],
      ['x-multi', '2'],
    ];
    const b: [string, string][] = [
      ['content-type', 'application/json'],
      ['x-multi', '1'],
      ['X-New', 'here'],
      ['X-Multi', '3'],
    ];
    assert.deepEqual(diffNamedValues(a, b, { ignoreCase: true }), {
      added: [{ name: 'X-New', values: ['here'] }],
      removed: [{ name: 'X-Old', values: ['gone'] }],
      changed: [{ name: 'x-multi', a: ['1', '2'], b: ['1', '3'] }],
    });
  });

  test('query: names are case-sensitive', () => {
    assert.deepEqual(diffNamedValues([['id', '1']], [['ID', '1']], { ignoreCase: false }), {
      added: [{ name: 'ID', values: ['1'] }],
      removed: [{ name: 'id', values: ['1'] }],
      changed: [],
    });
  });
});
