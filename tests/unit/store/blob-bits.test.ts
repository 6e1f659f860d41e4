import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { someRecordHasBits } from '../../../server/store/blob-bits.ts';

/** Records of `words` little-endian 32-bit words each, from [record, word, value] triples. */
function records(count: number, words: number, set: [number, number, number][]): Uint8Array {
  const view = new DataView(new ArrayBuffer(count * words * 4));
  for (const [r, w, v] of set) view.setInt32((r * words + w) * 4, v, true);
  return new Uint8Array(view.buffer);
}

describe('someRecordHasBits', () => {
  test('one record must hold every asked bit: bits spread over two records do not pass', () => {
    const bytes = records(3, 4, [
      [0, 1, 0b0101],
      [1, 2, 0b0011],
      [2, 1, 0b0100],
      [2, 2, 0b0010],
    ]);
    assert.equal(someRecordHasBits(bytes, 16, [[1, 0b0101]]), true);
    assert.equal(someRecordHasBits(bytes, 16, [[2, 0b0011]]), true);
    assert.equal(
      someRecordHasBits(bytes, 16, [
        [1, 0b0100],
        [2, 0b0010],
      ]),
      true,
    );
    assert.equal(
      someRecordHasBits(bytes, 16, [
        [1, 0b0001],
        [2, 0b0010],
      ]),
      false,
    );
    assert.equal(someRecordHasBits(bytes, 16, [[3, 0b0001]]), false);
  });

  test('the sign bit, an unaligned view and a torn last record', () => {
    const bytes = records(2, 2, [[1, 1, -0x80000000 | 1]]);
    const unaligned = new Uint8Array(bytes.length + 1).subarray(1);
    unaligned.set(bytes);
    assert.equal(someRecordHasBits(unaligned, 8, [[1, -0x80000000 | 1]]), true);
    assert.equal(someRecordHasBits(unaligned.subarray(0, 15), 8, [[1, 1]]), false);
    assert.equal(someRecordHasBits(new Uint8Array(0), 8, []), false);
  });
});
