import assert from 'node:assert/strict';
import { test } from '../../helpers/node-test.ts';
import { randomFraction } from '../../../server/support/random-fraction.ts';
import { SeededRandom, type Random } from '../../../server/support/random.ts';

const bytes = (hex: string): Random => ({ bytes: (n) => Buffer.from(hex, 'hex').subarray(0, n) });

test('randomFraction: the first four bytes, big-endian, over 2^32', () => {
  assert.equal(randomFraction(bytes('00000000')), 0);
  assert.equal(randomFraction(bytes('00000001')), 2 ** -32);
  assert.equal(randomFraction(bytes('80000000')), 0.5);
  assert.equal(randomFraction(bytes('01020304')), 0x01020304 / 2 ** 32);
  assert.equal(randomFraction(bytes('ffffffff')), 1 - 2 ** -32);
  assert.ok(randomFraction(bytes('ffffffff')) < 1);
});

test('randomFraction asks for four bytes, so a seeded Random gives a fixed sequence', () => {
  const asked: number[] = [];
  randomFraction({
    bytes: (n) => {
      asked.push(n);
      return Buffer.alloc(n);
    },
  });
  assert.deepEqual(asked, [4]);
  const r = new SeededRandom(7);
  const expected = new SeededRandom(7).bytes(8);
  assert.equal(randomFraction(r), expected.readUInt32BE(0) / 2 ** 32);
  assert.equal(randomFraction(r), expected.readUInt32BE(4) / 2 ** 32);
});
