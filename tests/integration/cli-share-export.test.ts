import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SLOW_TEST_TIMEOUT_MS, after, before, describe, test } from '../helpers/node-test.ts';
import { runCli } from '../helpers/cli-process.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

describe('hookscope share, export, diagnose and explain against a running engine', () => {
  let t: TestEngine;
  let outDir: string;
  let failedLog: string;
  let okLog: string;
  let target: Server;
  let targetUrl: string;
  const cli = (...args: string[]) => runCli([...args, '--data-dir', t.dataDir]);
  const ok = async (...args: string[]) => {
    const r = await cli(...args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    return r;
  };

  before(async () => {
    t = await startTestEngine();
    outDir = await makeTempDir('hookscope-cli-export-');
    const signed = await t.endpoint({ name: 'signed', validationType: 'hmac_sha256', webhookSecret: 'topsecret123' });
    const plain = await t.endpoint({ name: 'plain', validationType: 'none' });
    failedLog = (
      await t.deliver(`/webhook/${signed}/hook`, {
        body: '{"a":1}',
        headers: {
          'content-type': 'application/json',
          'x-webhook-signature': 'sha256=' + 'ab'.repeat(32),
          authorization: 'Bearer hush',
        },
      })
    ).body.error.details.logId;
    okLog = (await t.deliver(`/webhook/${plain}`, { body: 'fine' })).body.data.id;
    target = createServer((req, res) => {
      req.resume();
      res.end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hooks`;
  });
  after(async () => {
    await t.stop();
    await new Promise((r) => target.close(r));
    await rm(outDir, { recursive: true, force: true });
  });

  test(
    'share prints only the link on stdout; --hours, --no-redact, --json; --revoke kills it',
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async () => {
      const r = await ok('share', failedLog);
      const url = r.stdout.trim();
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/share\/[A-Za-z0-9_-]{43}$/);
      assert.match(r.stderr, /redacted/);
      const page = await fetch(url, { headers: { accept: 'application/json' } });
      assert.equal(page.status, 200);
      assert.ok(!JSON.stringify(await page.json()).includes('hush'), 'redacted by default');

      const json = JSON.parse((await ok('share', failedLog, '--hours', '2', '--no-redact', '--json')).stdout);
      assert.equal(json.expiresInHours, 2);
      assert.equal(json.redacted, false);
      assert.equal((await fetch(url)).status, 404, 'a new link replaces the old one');
      const unredacted = await fetch(json.url, { headers: { accept: 'application/json' } });
      assert.ok(JSON.stringify(await unredacted.json()).includes('hush'));

      assert.match((await ok('share', failedLog, '--revoke')).stdout, /Revoked/);
      assert.equal((await fetch(json.url)).status, 404);
      const again = await cli('share', failedLog, '--revoke');
      assert.equal(again.code, 1);
      assert.match(again.stderr, /^hookscope: .*\(SHARE_NOT_FOUND, HTTP 404\)\n$/);

      for (const bad of [
        ['--hours', '0'],
        ['--hours', '721'],
        ['--hours', 'x'],
        ['--hours', '2', '--revoke'],
      ]) {
        assert.equal((await cli('share', failedLog, ...bad)).code, 2, bad.join(' '));
      }
    },
  );

  test('share --redact-path hides every path segment after the first on the shared page', async () => {
    const ep = await t.endpoint({ name: 'slack-style', validationType: 'none' });
    const logId = (await t.deliver(`/webhook/${ep}/services/T0CLI/B0CLI/cli-path-secret`, { body: 'x' })).body.data
      .id as string;
    const sharedLog = async (url: string): Promise<{ path: string; share: { pathRedacted: boolean } }> =>
      ((await (await fetch(url, { headers: { accept: 'application/json' } })).json()) as { data: any }).data;
    const r = await ok('share', logId, '--redact-path');
    assert.match(r.stderr, /credential and signature headers redacted; path redacted after its first segment\./);
    const shared = await sharedLog(r.stdout.trim());
    assert.equal(shared.path, '/services/[redacted]/[redacted]/[redacted]');
    assert.equal(shared.share.pathRedacted, true);

    const json = JSON.parse((await ok('share', logId, '--json')).stdout);
    assert.equal(json.pathRedacted, false, 'off unless asked for');
    const plain = await sharedLog(json.url);
    assert.equal(plain.path, '/services/T0CLI/B0CLI/cli-path-secret');

    const both = await cli('share', logId, '--revoke', '--redact-path');
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--revoke and --redact-path cannot be used together/);
  });

  test(
    'export writes exactly the API file to stdout or --out; --json gives the object',
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async () => {
      const api = (await t.api('GET', `/api/webhooks/logs/${failedLog}/export?format=curl`)).body.data;
      const r = await ok('export', failedLog, '--format', 'curl');
      assert.equal(r.stdout, api.content);
      assert.match(r.stdout, /--data-raw '\{"a":1\}'/);

      const file = join(outDir, 'x.har');
      const w = await ok('export', failedLog, '--format', 'har', '--out', file);
      assert.equal(w.stdout, '');
      assert.match(w.stderr, /Wrote .*x\.har \(har, \d+ bytes/);
      const har = JSON.parse(await readFile(file, 'utf8'));
      assert.equal(har.log.version, '1.2');
      assert.equal(har.log.entries[0].request.postData.text, '{"a":1}');

      const json = JSON.parse(
        (await ok('export', failedLog, '--format', 'http', '--json', '--target', 'http://127.0.0.1:3000/x')).stdout,
      );
      assert.equal(json.format, 'http');
      assert.match(json.content, /^POST \/x HTTP\/1\.1\r\n/);
      const redacted = await ok('export', failedLog, '--format', 'json', '--redact');
      assert.ok(!redacted.stdout.includes('hush'));

      for (const bad of [[], ['--format', 'zip'], ['--format', 'curl', '--target', 'nope']]) {
        assert.equal((await cli('export', failedLog, ...bad)).code, 2, bad.join(' '));
      }
    },
  );

  test('diagnose: verification now, destination checks against a live target, the cURL; --json', async () => {
    const r = await ok('diagnose', failedLog, '--target', targetUrl);
    assert.match(r.stdout, /^Verification\nwhen it arrived\s+invalid \(no_matching_signature\)/m);
    assert.match(r.stdout, new RegExp(`^${targetUrl.replace(/[/.]/g, '\\$&')} \\(from --target\\)$`, 'm'));
    assert.match(r.stdout, /^dns\s+ok\s/m);
    assert.match(r.stdout, /^connect\s+ok\s/m);
    assert.match(r.stdout, /^http\s+ok\s+\S+ ms\s+HTTP 200 to HEAD$/m);
    assert.match(r.stdout, /Resend it with cURL\ncurl /);

    const json = JSON.parse((await ok('diagnose', failedLog, '--target', targetUrl, '--json')).stdout);
    assert.equal(json.destination.http.status, 200);
    assert.equal(json.verification.now.result, 'invalid');

    assert.match((await ok('diagnose', okLog)).stdout, /No destination to check/);
    assert.equal((await cli('diagnose', okLog, '--target', 'ftp://x')).code, 2);
  });

  test("explain: the engine's text, --json, --refresh; an eligible-less log is a one-line 409", async () => {
    const text = (await t.api('GET', `/api/cli/explain/${failedLog}`)).body.data;
    const r = await ok('explain', failedLog);
    assert.match(r.stdout, new RegExp(`^Analysis of ${failedLog}`));
    assert.match(r.stdout, /no_matching_signature/);
    assert.equal(text.logId, failedLog);

    const cached = JSON.parse((await ok('explain', failedLog, '--json')).stdout);
    assert.equal(cached.cached, true);
    const fresh = JSON.parse((await ok('explain', failedLog, '--json', '--refresh')).stdout);
    assert.equal(fresh.cached, false);

    const no = await cli('explain', okLog);
    assert.equal(no.code, 1);
    assert.match(no.stderr, /^hookscope: .*\(NOT_ELIGIBLE, HTTP 409\)\n$/);
  });
});
