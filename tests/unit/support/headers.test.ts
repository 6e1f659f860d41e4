import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { headerObject, headerPairs, headerValue } from '../../../server/support/headers.ts';

describe('header pairs', () => {
  test("headerPairs: Node's flat rawHeaders as ordered pairs, case and repeats kept", () => {
    assert.deepEqual(headerPairs(['Host', 'a', 'X-Id', '1', 'x-id', '2', 'Empty', '']), [
      ['Host', 'a'],
      ['X-Id', '1'],
      ['x-id', '2'],
      ['Empty', ''],
    ]);
    assert.deepEqual(headerPairs([]), []);
    // An odd trailing name (never from Node, which always pairs them) is dropped, not paired with undefined.
    assert.deepEqual(headerPairs(['A', '1', 'B']), [['A', '1']]);
  });

  test('headerObject: lower-case names, a repeated header as an array in order, no prototype', () => {
    const o = headerObject([
      ['Content-Type', 'text/plain'],
      ['X-Id', '1'],
      ['x-ID', '2'],
      ['X-Id', '3'],
      ['__proto__', 'p'],
    ]);
    assert.deepEqual(Object.keys(o), ['content-type', 'x-id', '__proto__']);
    assert.equal(o['content-type'], 'text/plain');
    assert.deepEqual(o['x-id'], ['1', '2', '3']);
    assert.equal(o['__proto__'], 'p');
    assert.equal(Object.getPrototypeOf(o), null);
  });

  test('headerValue: the first value of the name in any case; undefined when absent; an empty value is a value', () => {
    const pairs: [string, string][] = [
      ['HOST', 'one.example'],
      ['X-Id', ''],
      ['host', 'two.example'],
    ];
    assert.equal(headerValue(pairs, 'host'), 'one.example');
    assert.equal(headerValue(pairs, 'Host'), 'one.example');
    assert.equal(headerValue(pairs, 'x-id'), '');
    assert.equal(headerValue(pairs, 'x-other'), undefined);
    assert.equal(headerValue([], 'host'), undefined);
  });
});
