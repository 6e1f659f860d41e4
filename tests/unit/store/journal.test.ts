import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { describe, test } from '../../helpers/node-test.ts';
import { decodeRecords, encodeRecord } from '../../../server/store/journal-codec.ts';
import { listSegments } from '../../../server/store/journal-files.ts';
import { Journal } from '../../../server/store/journal.ts';
import { makeTempDir } from '../../helpers/temp-dir.ts';

const frame = (seq: number): Buffer => encodeRecord({ seq, ops: [{ sql: 'INSERT INTO t VALUES (?)', params: [seq] }] });

async function seqsOnDisk(dir: string): Promise<number[]> {
  const out: number[] = [];
  for (const s of await listSegments(dir)) out.push(...decodeRecords(await readFile(s.path)).records.map((r) => r.seq));
  return out;
}

describe('journal', () => {
  test('appends that arrive while a rotation swaps the file all land, in order, and the sync timer never touches a closed file', async () => {
    const dir = await makeTempDir();
    const errors: Error[] = [];
    // A 1 ms sync interval makes the timer fire during the rotations below.
    const journal = await Journal.open({
      dir,
      segment: 1,
      sync: 'interval',
      syncIntervalMs: 1,
      onError: (e) => errors.push(e),
    });
    try {
      const appends: Promise<void>[] = [];
      const rotations: Promise<number>[] = [];
      // Each rotation is followed by appends and event-loop turns while its datasync and close are in flight.
      for (let seq = 1; seq <= 600; seq++) {
        appends.push(journal.append(frame(seq)));
        if (seq % 20 === 0) rotations.push(journal.rotate());
        if (seq % 3 === 0) await new Promise((r) => setImmediate(r));
      }
      await Promise.all([...appends, ...rotations]);
      await journal.close();
      assert.deepEqual(errors, []);
      assert.deepEqual(
        await seqsOnDisk(dir),
        Array.from({ length: 600 }, (_, i) => i + 1),
      );
      await assert.rejects(journal.append(frame(601)), /closed/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
