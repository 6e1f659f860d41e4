import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkTeamServer } from '../../../electron/team-server-check.ts';
import { closedPort } from '../../helpers/closed-port.ts';
import { startTestEngine } from '../../helpers/test-engine.ts';
import { test } from '../../helpers/node-test.ts';

/** A loopback server answering every request with `status` and `body` (or never, when `body` is null). */
async function server(status: number, body: string | null): Promise<{ url: string; server: Server }> {
  const s = createServer((_req, res) => {
    if (body !== null) res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, server: s };
}

test('a Hookscope engine passes: GET /api/version names it', async () => {
  const engine = await startTestEngine();
  try {
    const url = engine.engine.apiUrl.replace(/\/$/, '');
    assert.equal(await checkTeamServer(url, fetch, 5_000), null);
  } finally {
    await engine.stop();
  }
});

test('anything else is refused with a sentence: another server, an error, no server, no answer', async () => {
  const other = await server(200, JSON.stringify({ success: true, data: { name: 'something-else' } }));
  const missing = await server(404, 'not found');
  const silent = await server(200, null);
  const closed = await closedPort();
  try {
    assert.equal(
      await checkTeamServer(other.url, fetch, 5_000),
      `${other.url} is not a Hookscope server (GET /api/version answered 200).`,
    );
    assert.equal(
      await checkTeamServer(missing.url, fetch, 5_000),
      `${missing.url} is not a Hookscope server (GET /api/version answered 404).`,
    );
    assert.equal(
      await checkTeamServer(closed.url, fetch, 5_000),
      `The team server at ${closed.url} did not answer (it could not be reached).`,
    );
    assert.equal(
      await checkTeamServer(silent.url, fetch, 100),
      `The team server at ${silent.url} did not answer (no answer in time).`,
    );
  } finally {
    for (const s of [other, missing, silent]) s.server.closeAllConnections();
    await Promise.all([other, missing, silent].map((s) => new Promise((r) => s.server.close(r))));
    await closed.release();
  }
});
