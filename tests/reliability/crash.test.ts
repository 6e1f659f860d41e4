import assert from 'node:assert/strict';
import { appendFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SLOW_TEST_TIMEOUT_MS, after, describe, test } from '../helpers/node-test.ts';
import { runCli, startServe, type ServeProcess } from '../helpers/cli-process.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Kills the engine unless it already exited, and waits for it to be gone. */
async function ensureStopped(p: ServeProcess, signal: NodeJS.Signals): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  await p.exited;
}

describe('crash safety', () => {
  test(
    'every delivery acknowledged before a SIGKILL is there after restart, with a torn journal tail',
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async () => {
      const dir = await makeTempDir('hookscope-crash-');
      dirs.push(dir);
      const token = (await runCli(['token', '--data-dir', dir])).stdout.trim();
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const acked = new Map<string, string>();
      let sent = 0;
      let killed = false;
      let endpointId = '';
      const s = await startServe(dir);
      try {
        const created = await fetch(`${s.apiUrl}/api/endpoints`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ name: 'crash', validationType: 'none' }),
        });
        endpointId = ((await created.json()) as { data: { id: string } }).data.id;

        // A burst from 16 concurrent senders; the engine is killed while it is in full flow.
        const sender = async (n: number) => {
          for (let i = 0; !killed && i < 2000; i++) {
            const body = `{"sender":${n},"i":${i}}`;
            sent++;
            try {
              const r = await fetch(`${s.receiverUrl}/webhook/${endpointId}`, { method: 'POST', body });
              if (r.status === 200) acked.set(((await r.json()) as { data: { id: string } }).data.id, body);
            } catch {
              return; // connection died with the engine
            }
            if (acked.size >= 300 && !killed) {
              killed = true;
              s.child.kill('SIGKILL');
            }
          }
        };
        await Promise.all(Array.from({ length: 16 }, (_, n) => sender(n)));
      } finally {
        // Whatever failed above, no engine is left running (a no-op after the SIGKILL).
        await ensureStopped(s, 'SIGKILL');
      }
      assert.ok(killed, 'the engine was killed mid-burst');
      assert.ok(acked.size >= 300, `acknowledged ${acked.size} of ${sent}`);

      // A write torn by the crash: half a frame at the end of the newest journal segment.
      const storeDir = join(dir, 'store');
      const segments = (await readdir(storeDir)).filter((f) => f.startsWith('journal-')).sort();
      await appendFile(
        join(storeDir, segments[segments.length - 1]!),
        Buffer.from([0xff, 0x00, 0x00, 0x00, 0xde, 0xad]),
      );

      const again = await startServe(dir);
      try {
        const missing: string[] = [];
        for (const [id, body] of acked) {
          const r = await fetch(`${again.apiUrl}/api/webhooks/logs/${id}`, { headers: auth });
          if (r.status !== 200) {
            missing.push(id);
            continue;
          }
          const log = ((await r.json()) as { data: { body: string } }).data;
          assert.equal(log.body, body);
        }
        assert.deepEqual(missing, [], `${missing.length} acknowledged deliveries were lost`);
        // And the engine keeps working after recovery.
        const r = await fetch(`${again.receiverUrl}/webhook/${endpointId}`, { method: 'POST', body: 'after' });
        assert.equal(r.status, 200);
      } finally {
        await ensureStopped(again, 'SIGTERM');
      }
    },
  );
});
