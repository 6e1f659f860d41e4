import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SLOW_TEST_TIMEOUT_MS, test } from '../helpers/node-test.ts';
import { runCli, startServe, type ServeProcess } from '../helpers/cli-process.ts';
import { rawRequest, type RawResponse } from '../helpers/raw-request.ts';
import { startSilentDropFront, type SilentDropFront } from '../helpers/silent-drop-front.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { startTunnelServer, type TunnelServer } from '../helpers/tunnel-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * A day of use, as the guide asks of every change, kept as a test: the engine
 * as users run it (`hookscope serve --tunnel`, the compiled build), deliveries
 * minutes apart (scaled down: quiet for four header timeouts), a 2 MB body and a
 * 3,000-deep one through the public URL, a second account trying to act as the
 * owner, the laptop sleeping while the tunnel server drops its sockets, and the
 * engine stopped under the CLI. Each step checks what the user sees.
 */

const HEADERS_TIMEOUT_MS = 500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test(
  'a day of use: quiet, big and deep bodies, a second account, a silent drop, the engine stopped',
  { timeout: SLOW_TEST_TIMEOUT_MS },
  async () => {
    let srv: TunnelServer | null = null;
    let front: SilentDropFront | null = null;
    let serve: ServeProcess | null = null;
    const dataDir = await makeTempDir('hookscope-day-');
    try {
      srv = await startTunnelServer();
      front = await startSilentDropFront(srv);
      await writeFile(
        join(dataDir, 'config.json'),
        JSON.stringify({
          receiver: { headersTimeoutMs: HEADERS_TIMEOUT_MS },
          tunnel: {
            probeOrigin: srv.origin,
            openTimeoutMs: 5000,
            probeIntervalMs: 400,
            probeTimeoutMs: 2000,
            probeFailures: 2,
            backoffMinMs: 50,
            backoffMaxMs: 400,
          },
        }),
      );
      serve = await startServe(dataDir, ['--tunnel', '--tunnel-host', front.origin]);
      const s = serve;
      const publicLine = await waitFor(
        'the public URL',
        () => /Public\s+(http:\/\/\S+)\/webhook\/<endpointId>/.exec(s.output()) ?? undefined,
      );
      const publicUrl = publicLine[1]!;
      const publicHost = `${new URL(publicUrl).hostname}:${srv.port}`;

      const owner = (await runCli(['token', '--data-dir', dataDir])).stdout.trim();
      const mallory = (await runCli(['token', '--data-dir', dataDir, '--user', 'mallory'])).stdout.trim();
      const api = async (token: string, method: string, path: string, body?: unknown) => {
        const r = await fetch(s.apiUrl + path, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: r.status, body: (await r.json()) as any };
      };
      const deliver = (path: string, body: string | Buffer): Promise<RawResponse> =>
        rawRequest(`${srv!.origin}${path}`, {
          headers: [
            ['Host', publicHost],
            ['Content-Type', 'application/json'],
          ],
          body,
        });

      const ep = (await api(owner, 'POST', '/api/endpoints', { name: 'orders', validationType: 'none' })).body.data;
      assert.equal(ep.publicUrl, `${publicUrl}/webhook/${ep.id}`);

      // Quiet longer than every receiver timeout, as between real deliveries.
      await sleep(HEADERS_TIMEOUT_MS * 4);
      const big = Buffer.from(
        JSON.stringify({ items: Array.from({ length: 40_000 }, (_, i) => ({ i, sku: `sku-${i}` })) }),
      );
      assert.ok(big.length > 1_000_000, `a large body (${big.length} bytes)`);
      const deep = '['.repeat(3000) + '"bottom"' + ']'.repeat(3000);
      const bigAnswer = await deliver(`/webhook/${ep.id}/big`, big);
      assert.equal(bigAnswer.status, 200, bigAnswer.body.toString());
      const deepAnswer = await deliver(`/webhook/${ep.id}/deep`, deep);
      assert.equal(deepAnswer.status, 200, deepAnswer.body.toString());
      const bigLog = (await api(owner, 'GET', `/api/webhooks/logs/${bigAnswer.json().data.id}`)).body.data;
      assert.equal(bigLog.size, big.length);
      assert.equal(bigLog.body, big.toString(), 'the 2 MB body is kept byte for byte');
      const deepLog = (await api(owner, 'GET', `/api/webhooks/logs/${deepAnswer.json().data.id}`)).body.data;
      assert.equal(deepLog.body, deep, 'the 3,000-deep body is kept and served');

      // A second account tries to act as the owner.
      assert.equal((await api(mallory, 'POST', '/api/tunnel', { host: 'http://attacker.invalid' })).status, 403);
      assert.equal((await api(mallory, 'GET', `/api/webhooks/logs/${bigLog.id}`)).status, 404);
      assert.equal((await api(mallory, 'GET', `/api/endpoints/${ep.id}`)).status, 404);
      const cookie = await api(mallory, 'POST', '/api/endpoints', {
        name: 'trap',
        validationType: 'none',
        customResponse: { status: 200, headers: [{ name: 'Set-Cookie', value: 'hookscope_session=x' }] },
      });
      assert.equal(cookie.status, 400);
      assert.equal(cookie.body.error.details.issues[0].field, 'customResponse.headers.0.name');
      const trap = (
        await api(mallory, 'POST', '/api/endpoints', {
          name: 'trap',
          validationType: 'none',
          customResponse: {
            status: 200,
            headers: [{ name: 'Content-Type', value: 'text/html' }],
            body: '<script>1</script>',
          },
        })
      ).body.data;
      const onUiOrigin = await rawRequest(`${s.apiUrl}/webhook/${trap.id}`, { method: 'GET' });
      assert.equal(onUiOrigin.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(onUiOrigin.json().success, true);
      const overTunnel = await deliver(`/webhook/${trap.id}`, '{}');
      assert.equal(overTunnel.body.toString(), '<script>1</script>');
      assert.equal(overTunnel.headers['content-security-policy'], "sandbox; default-src 'none'");
      assert.equal((await api(owner, 'GET', '/api/tunnel')).body.data.host, front.origin, 'the tunnel is unchanged');

      // The laptop sleeps; the tunnel server drops its sockets and the client is not told.
      front.dropSilently();
      await waitFor('serve to say the tunnel fails', () => s.output().includes('Tunnel     failing: The public URL'));
      await waitFor('the tunnel back online', async () => {
        const t = (await api(owner, 'GET', '/api/tunnel')).body.data;
        return t.state === 'online' && t.url === publicUrl;
      });
      const engineLog = await readFile(join(dataDir, 'logs', 'engine.log'), 'utf8');
      assert.match(engineLog, /"state":"degraded"[^\n]*"msg":"tunnel state"/, 'the engine log has the degraded state');
      await sleep(HEADERS_TIMEOUT_MS * 4);
      const after = await deliver(`/webhook/${ep.id}/after`, '{"after":"sleep"}');
      assert.equal(after.status, 200, after.body.toString());

      // The engine stops under the CLI: the CLI says so, clearly, and exits 1.
      s.child.kill('SIGTERM');
      assert.equal(await s.exited, 0);
      serve = null;
      assert.equal(existsSync(join(dataDir, 'runtime.json')), false);
      const cli = await runCli(['logs', 'list', '--data-dir', dataDir]);
      assert.equal(cli.code, 1);
      assert.match(cli.stderr, /No Hookscope engine is running for /);
    } finally {
      if (serve) {
        serve.child.kill('SIGKILL');
        await serve.exited;
      }
      await front?.close();
      await srv?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
);
