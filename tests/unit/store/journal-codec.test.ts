import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { crc32 } from '../../../server/store/crc32.ts';
import { decodeRecords, encodeRecord, type JournalRecord } from '../../../server/store/journal-codec.ts';

describe('crc32', () => {
  test('matches the standard check values', () => {
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
    assert.equal(crc32(Buffer.alloc(0)), 0);
    assert.equal(crc32(Buffer.from('The quick brown fox jumps over the lazy dog')), 0x414fa339);
  });
});

describe('journal codec', () => {
  const records: JournalRecord[] = [
    { seq: 1, ops: [{ sql: 'INSERT INTO t VALUES (?, ?)', params: ['a', 1.5] }] },
    {
      seq: 2,
      ops: [
        { sql: 'INSERT INTO b VALUES (?, ?, ?)', params: [Buffer.from([0, 255, 10, 13]), null, Buffer.from('x')] },
        { sql: 'DELETE FROM t', params: [] },
      ],
    },
  ];

  test('round-trips statements and binary parameters byte-exact', () => {
    const buf = Buffer.concat(records.map(encodeRecord));
    const { records: out, goodLength } = decodeRecords(buf);
    assert.equal(goodLength, buf.length);
    assert.equal(out.length, 2);
    assert.equal(out[0]!.ops[0]!.params[1], 1.5);
    const blob = out[1]!.ops[0]!.params[0] as Uint8Array;
    assert.deepEqual([...blob], [0, 255, 10, 13]);
    assert.equal(out[1]!.ops[0]!.params[1], null);
    assert.equal(Buffer.from(out[1]!.ops[0]!.params[2] as Uint8Array).toString(), 'x');
  });

  test('stops at a torn tail and reports how much is intact', () => {
    const first = encodeRecord(records[0]!);
    const second = encodeRecord(records[1]!);
    for (const cut of [1, 11, 12, second.length - 1]) {
      const buf = Buffer.concat([first, second.subarray(0, cut)]);
      const { records: out, goodLength } = decodeRecords(buf);
      assert.equal(out.length, 1, `cut at ${cut}`);
      assert.equal(goodLength, first.length);
    }
  });

  test('rejects a frame whose bytes were damaged', () => {
    const first = encodeRecord(records[0]!);
    const second = Buffer.from(encodeRecord(records[1]!));
    second[second.length - 1]! ^= 0xff;
    const { records: out, goodLength } = decodeRecords(Buffer.concat([first, second]));
    assert.equal(out.length, 1);
    assert.equal(goodLength, first.length);
  });
});
