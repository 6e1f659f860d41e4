import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { request, type ClientRequest } from 'node:http';
import { test } from '../helpers/node-test.ts';
import { runCli, startServe, type ServeProcess } from '../helpers/cli-process.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';

const MiB = 1024 * 1024;

/** Peak resident memory of a process, from /proc (Linux): the high-water mark, not a sample. */
async function vmHwmBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  assert.ok(kb, 'VmHWM in /proc/<pid>/status');
  return Number(kb[1]) * 1024;
}

/**
 * One delivery on its own connection. It settles with the status as soon as one
 * arrived, even if the receiver then closes mid-body (it answers 503 before
 * reading, with Connection: close), and rejects only when no answer came.
 */
function post(url: string, body: Buffer, open: Set<ClientRequest>): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    let status = 0;
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'content-length': body.length },
        agent: false,
      },
      (res) => {
        status = res.statusCode ?? 0;
        res.resume();
        res.on('close', () => resolve({ status }));
      },
    );
    open.add(req);
    req.on('close', () => {
      open.delete(req);
      if (status === 0) reject(new Error('the connection closed without an answer'));
    });
    req.on('error', () => undefined); // a write cut short after the answer is not a failure; 'close' decides
    req.end(body);
  });
}

/** One GET on a fresh connection (no keep-alive reuse), so a failure is the engine's, not a pooled socket's. */
function getStatus(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname, headers: { authorization: `Bearer ${token}` }, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => reject(new Error(`${e.code ?? ''} ${e.message}`)));
    req.end();
  });
}

// Issue: 80 concurrent 9 MiB deliveries took the engine from 0.13 GB to 3.67 GB resident.
// The in-flight body budget (64 MiB by default) refuses what does not fit with 503.
test('80 concurrent 9 MiB deliveries keep the engine under 1 GB peak resident memory, and the API keeps answering', async () => {
  const dir = await makeTempDir('hookscope-large-');
  let serve: ServeProcess | null = null;
  const open = new Set<ClientRequest>();
  try {
    const token = (await runCli(['token', '--data-dir', dir])).stdout.trim();
    // The default limits, except the rate limit: 80 at once is more than its burst is for.
    serve = await startServe(dir, ['--no-tunnel'], { HOOKSCOPE_RATE_LIMIT_PER_SECOND: '0' });
    const s = serve;
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${s.apiUrl}/api/endpoints`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'large', validationType: 'none' }),
    });
    const endpointId = ((await created.json()) as { data: { id: string } }).data.id;

    const body = Buffer.alloc(9 * MiB, 'x');
    let flooding = true;
    const apiStatuses: (number | string)[] = [];
    const apiProbe = (async () => {
      while (flooding) {
        try {
          apiStatuses.push(await getStatus(`${s.apiUrl}/api/version`, token));
        } catch (e) {
          apiStatuses.push(`${e instanceof Error ? e.message : String(e)}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: 80 }, () => post(`${s.receiverUrl}/webhook/${endpointId}`, body, open)),
    );
    flooding = false;
    await apiProbe;

    const peak = await vmHwmBytes(s.child.pid!);
    const counts = new Map<number, number>();
    for (const a of answers) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
    assert.deepEqual([...counts.keys()].sort(), [200, 503], `statuses ${JSON.stringify([...counts])}`);
    assert.ok(peak < 1024 * MiB, `peak resident memory ${(peak / MiB).toFixed(0)} MiB`);
    assert.ok(
      apiStatuses.length > 0 && apiStatuses.every((st) => st === 200),
      `API answers during the flood: ${apiStatuses.join(',')}`,
    );

    // Every delivery is accounted for: stored whole, or recorded as refused with its reason.
    const logs = (await (
      await fetch(`${s.apiUrl}/api/webhooks/logs?endpointId=${endpointId}&limit=200`, { headers: auth })
    ).json()) as {
      data: {
        total: number;
        logs: { status: string; size: number; declaredSize: number; verification: { reason: string | null } }[];
      };
    };
    assert.equal(logs.data.total, 80);
    const stored = logs.data.logs.filter((l) => l.status === 'success');
    const busy = logs.data.logs.filter((l) => l.verification.reason === 'server_busy');
    assert.equal(stored.length, counts.get(200));
    assert.equal(busy.length, counts.get(503));
    assert.ok(stored.every((l) => l.size === 9 * MiB));
    assert.ok(busy.every((l) => l.size === 0 && l.declaredSize === 9 * MiB));
  } finally {
    for (const req of open) req.destroy();
    if (serve) {
      serve.child.kill('SIGKILL');
      await serve.exited;
    }
    await rm(dir, { recursive: true, force: true });
  }
});
