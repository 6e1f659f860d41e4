import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { crc32 } from 'node:zlib';
import {
  decodeRecords,
  encodeDefinitions,
  encodeRecord,
  type JournalRecord,
} from '../../../server/store/journal-codec.ts';
import { StatementCatalogue } from '../../../server/store/statement-catalogue.ts';

describe('journal frame checksum', () => {
  test('is CRC-32/IEEE: the standard check values', () => {
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
    assert.equal(crc32(Buffer.alloc(0)), 0);
    assert.equal(crc32(Buffer.from('The quick brown fox jumps over the lazy dog')), 0x414fa339);
  });

  // The frame below was written by the earlier table-driven CRC (server/store/crc32.ts):
  // journals written before the switch to zlib.crc32 must still replay, byte for byte.
  const record: JournalRecord = {
    seq: 7,
    ops: [{ sql: 'INSERT INTO b VALUES (?, ?)', params: ['a', Buffer.from('123456789')] }],
  };
  const payload = '{"s":7,"o":[["INSERT INTO b VALUES (?, ?)",["a",{"$b":[0,9]}]]]}123456789';
  const golden = Buffer.concat([
    Buffer.from('49000000' + 'ae390a7c' + '40000000', 'hex'),
    Buffer.from(payload, 'latin1'),
  ]);

  test('the codec writes the CRC-32 of the payload, the same frame as before', () => {
    const frame = encodeRecord(record);
    assert.equal(frame.readUInt32LE(4), 0x7c0a39ae);
    assert.equal(frame.toString('hex'), golden.toString('hex'));
  });

  test('the codec reads a frame written before and refuses one with another checksum', () => {
    const { records, goodLength } = decodeRecords(golden);
    assert.equal(goodLength, 85);
    assert.equal(records[0]!.seq, 7);
    assert.equal(Buffer.from(records[0]!.ops[0]!.params[1] as Uint8Array).toString(), '123456789');
    const wrong = Buffer.from(golden);
    wrong.writeUInt32LE(0xcbf43926, 4);
    assert.equal(decodeRecords(wrong).goodLength, 0);
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
    const buf = Buffer.concat(records.map((r) => encodeRecord(r)));
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

describe('journal coalesced ops', () => {
  test('the flag round-trips as a third element, and an op without it has none', () => {
    const record: JournalRecord = {
      seq: 3,
      ops: [
        { sql: 'INSERT INTO t VALUES (?)', params: [1] },
        { sql: 'DELETE FROM t WHERE x > ?', params: [5], coalesce: true },
      ],
    };
    const frame = encodeRecord(record);
    assert.equal(
      frame.subarray(12).toString('utf8'),
      '{"s":3,"o":[["INSERT INTO t VALUES (?)",[1]],["DELETE FROM t WHERE x > ?",[5],1]]}',
    );
    assert.deepEqual(decodeRecords(frame).records, [record]);
  });
});

describe('journal spilled values', () => {
  test('a spilled value is framed after the parameters and comes back byte-exact', () => {
    const body = Buffer.from([0, 1, 2, 250, 255]);
    const record: JournalRecord = {
      seq: 4,
      ops: [{ sql: 'INSERT INTO b (n, loc) VALUES (?, ?)', params: [5], spill: body }],
    };
    const frame = encodeRecord(record);
    assert.equal(
      frame.subarray(12, 12 + frame.readUInt32LE(8)).toString('utf8'),
      '{"s":4,"o":[["INSERT INTO b (n, loc) VALUES (?, ?)",[5],0,{"$b":[0,5]}]]}',
    );
    const decoded = decodeRecords(frame).records[0]!;
    assert.deepEqual([...(decoded.ops[0]!.spill as Uint8Array)], [...body]);
    assert.equal(decoded.ops[0]!.coalesce, undefined);
  });
});

describe('journal wipe ops', () => {
  test('the wipe flag (2) round-trips, alone and with coalesce', () => {
    const record: JournalRecord = {
      seq: 9,
      ops: [
        { sql: 'SELECT location, length FROM b', params: [], wipe: true },
        { sql: 'DELETE FROM b', params: [], wipe: true, coalesce: true },
      ],
    };
    const frame = encodeRecord(record);
    assert.equal(
      frame.subarray(12).toString('utf8'),
      '{"s":9,"o":[["SELECT location, length FROM b",[],2],["DELETE FROM b",[],3]]}',
    );
    assert.deepEqual(decodeRecords(frame).records, [
      {
        seq: 9,
        ops: [
          { sql: 'SELECT location, length FROM b', params: [], wipe: true },
          { sql: 'DELETE FROM b', params: [], coalesce: true, wipe: true },
        ],
      },
    ]);
  });
});

describe('journal guarded ops', () => {
  const GUARD = 'SELECT count > ?2 FROM stats WHERE k = ?1';
  const record: JournalRecord = {
    seq: 11,
    ops: [
      { sql: 'INSERT INTO b (n) VALUES (?)', params: [1] },
      { sql: 'DELETE FROM b', params: ['k', 5], coalesce: true, when: { sql: GUARD, params: ['k', 5] } },
      {
        sql: 'INSERT INTO b (n, loc) VALUES (?, ?)',
        params: [2],
        spill: Buffer.from([9, 0, 8]),
        when: { sql: GUARD, params: [Buffer.from([1, 2]), null] },
      },
    ],
  };

  test('the guard is a fifth element after a 0 spill (or the spilled value), and round-trips with its parameters', () => {
    const frame = encodeRecord(record);
    assert.equal(
      frame.subarray(12, 12 + frame.readUInt32LE(8)).toString('utf8'),
      `{"s":11,"o":[["INSERT INTO b (n) VALUES (?)",[1]],["DELETE FROM b",["k",5],1,0,["${GUARD}",["k",5]]],` +
        `["INSERT INTO b (n, loc) VALUES (?, ?)",[2],0,{"$b":[0,3]},["${GUARD}",[{"$b":[3,2]},null]]]]}`,
    );
    const [decoded] = decodeRecords(frame).records;
    assert.deepEqual(decoded!.ops[1], record.ops[1]);
    assert.deepEqual(decoded!.ops[1]!.spill, undefined);
    assert.deepEqual([...(decoded!.ops[2]!.spill as Uint8Array)], [9, 0, 8]);
    assert.equal(decoded!.ops[2]!.when!.sql, GUARD);
    assert.deepEqual([...(decoded!.ops[2]!.when!.params[0] as Uint8Array)], [1, 2]);
    assert.equal(decoded!.ops[2]!.when!.params[1], null);
  });

  test('with a catalogue the guard is named by number too, and decodes after its definition', () => {
    const c = new StatementCatalogue();
    const numbered = encodeRecord(record, c);
    const buf = Buffer.concat([encodeDefinitions(c.definitionsAfter(0)), numbered]);
    const [decoded] = decodeRecords(buf).records;
    assert.equal(c.idOf(GUARD), 3);
    assert.deepEqual(
      decoded!.ops.map((o) => o.when?.sql ?? null),
      [null, GUARD, GUARD],
    );
    assert.deepEqual(decoded!.ops[1], record.ops[1]);
  });
});
