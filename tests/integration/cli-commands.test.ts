import assert from 'node:assert/strict';
import { request } from 'node:http';
import { SLOW_TEST_TIMEOUT_MS, after, before, describe, test } from '../helpers/node-test.ts';
import { runCliBytes } from '../helpers/cli-bytes.ts';
import { runCli } from '../helpers/cli-process.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[/;

describe('hookscope endpoints and logs against a running engine', () => {
  let t: TestEngine;
  const cli = (...args: string[]) => runCli([...args, '--data-dir', t.dataDir]);
  const ok = async (...args: string[]) => {
    const r = await cli(...args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  before(async () => {
    t = await startTestEngine();
  });
  after(() => t.stop());

  test('endpoints create: a readable confirmation, or the endpoint as JSON (canonical type, no secret)', async () => {
    const out = await ok('endpoints', 'create', '--name', 'Orders', '--type', 'none', '--description', 'orders hook');
    const m =
      /^Created endpoint (ep_\w+) \(Orders, none\)\nSend webhooks to: (http:\/\/127\.0\.0\.1:\d+\/webhook\/ep_\w+)\n$/.exec(
        out,
      );
    assert.ok(m, out);
    assert.equal(m[2], `${t.engine.receiverUrl}/webhook/${m[1]}`);

    const forwardUrl = `${(await closedPort()).url}/hook`;
    const json = JSON.parse(
      await ok(
        'endpoints',
        'create',
        '--name',
        'Signed',
        '--type',
        'hmac',
        '--secret',
        's3cret-value',
        '--forward-url',
        forwardUrl,
        '--json',
      ),
    );
    assert.match(json.id, /^ep_/);
    assert.equal(json.validationType, 'hmac_sha256');
    assert.equal(json.forwardUrl, forwardUrl);
    assert.equal(json.hasSecret, true);
    assert.ok(!JSON.stringify(json).includes('s3cret-value'), 'the secret is never printed');
  });

  test('endpoints list: a table (the default subcommand) and --json', async () => {
    // Its own account, so the list and its total hold only what this test created.
    await ok('endpoints', 'create', '--name', 'Orders', '--type', 'none', '--user', 'lister');
    await ok(
      'endpoints',
      'create',
      '--name',
      'Signed',
      '--type',
      'hmac',
      '--secret',
      's3cret-value',
      '--user',
      'lister',
    );
    const table = await ok('endpoints', '--user', 'lister');
    const lines = table.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID\s+NAME\s+TYPE\s+ACTIVE\s+URL\s+CREATED$/);
    assert.ok(
      lines.some((l) =>
        /^ep_\w+\s+Signed\s+hmac_sha256\s+yes\s+http:\/\/127\.0\.0\.1:\d+\/webhook\/ep_\w+\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(
          l,
        ),
      ),
      table,
    );
    assert.ok(!ANSI.test(table), 'NO_COLOR output has no escape codes');
    assert.equal(await ok('endpoints', 'list', '--user', 'lister'), table);

    const json = JSON.parse(await ok('endpoints', '--json', '--user', 'lister'));
    assert.equal(json.total, 2);
    assert.deepEqual(json.endpoints.map((e: { name: string }) => e.name).sort(), ['Orders', 'Signed']);
  });

  test('endpoints show, disable, enable and delete', { timeout: SLOW_TEST_TIMEOUT_MS }, async () => {
    const id = await t.endpoint({ name: 'Lifecycle', validationType: 'none' });
    const shown = await ok('endpoints', 'show', id);
    assert.match(shown, new RegExp(`^id\\s+${id}$`, 'm'));
    assert.match(shown, /^name\s+Lifecycle$/m);
    assert.match(shown, /^active\s+yes$/m);
    assert.match(shown, /^secret\s+none$/m);
    assert.equal(JSON.parse(await ok('endpoints', 'show', id, '--json')).name, 'Lifecycle');

    assert.match(await ok('endpoints', 'disable', id), /is inactive/);
    assert.equal((await t.api('GET', `/api/endpoints/${id}`)).body.data.isActive, false);
    assert.equal((await t.deliver(`/webhook/${id}`, { body: 'x' })).status, 410);
    assert.equal(JSON.parse(await ok('endpoints', 'enable', id, '--json')).isActive, true);
    assert.equal((await t.deliver(`/webhook/${id}`, { body: 'x' })).status, 200);

    assert.equal(await ok('endpoints', 'delete', id), `Deleted endpoint ${id} and its logs.\n`);
    const gone = await cli('endpoints', 'show', id);
    assert.equal(gone.code, 1);
    assert.equal(gone.stderr, `hookscope: Endpoint ${id} was not found. (ENDPOINT_NOT_FOUND, HTTP 404)\n`);
    assert.deepEqual(
      JSON.parse(await ok('endpoints', 'delete', await t.endpoint({ name: 'tmp', validationType: 'none' }), '--json'))
        .deleted,
      true,
    );
  });

  test('--user acts as another account, which sees only its own endpoints', async () => {
    const created = JSON.parse(
      await ok('endpoints', 'create', '--name', 'Alice only', '--type', 'none', '--user', 'alice', '--json'),
    );
    const alices = JSON.parse(await ok('endpoints', '--user', 'alice', '--json'));
    assert.deepEqual(
      alices.endpoints.map((e: { id: string }) => e.id),
      [created.id],
    );
    assert.ok(!(await ok('endpoints')).includes(created.id));
    assert.equal((await cli('endpoints', 'show', created.id)).code, 1, "another account's endpoint is not found");
  });

  test(
    'logs: the table (time, id, endpoint, method, path, status, reason, size), filters, paging and --json',
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async () => {
      // Its own account, so listing, search and paging see only the two deliveries made here.
      const token = await t.engine.issueToken('logreader');
      const logs = (...args: string[]) => ok('logs', ...args, '--user', 'logreader');
      const plain = await t.endpoint({ name: 'plain', validationType: 'none' }, token);
      const signed = await t.endpoint(
        { name: 'signed', validationType: 'hmac_sha256', webhookSecret: 'topsecret123' },
        token,
      );
      const good = (
        await t.deliver(`/webhook/${plain}/orders?x=1`, {
          body: '{"order":42}',
          headers: { 'content-type': 'application/json' },
        })
      ).body.data.id;
      const bad = (
        await t.deliver(`/webhook/${signed}/pay`, { body: 'unsigned', headers: { 'X-Custom-Thing': 'findme' } })
      ).body.error.details.logId;

      const table = await logs();
      const lines = table.trimEnd().split('\n');
      assert.match(lines[0]!, /^TIME\s+ID\s+ENDPOINT\s+METHOD\s+PATH\s+STATUS\s+REASON\s+SIZE$/);
      assert.match(
        table,
        new RegExp(
          `^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+${bad}\\s+${signed}\\s+POST\\s+/pay\\s+failed\\s+missing_header\\s+8 B$`,
          'm',
        ),
      );
      assert.match(
        table,
        new RegExp(`^\\S+ \\S+\\s+${good}\\s+${plain}\\s+POST\\s+/orders\\s+success\\s+-\\s+12 B$`, 'm'),
      );
      assert.ok(table.indexOf(bad) < table.indexOf(good), 'newest first');

      const failed = await logs('--status', 'failed');
      assert.ok(failed.includes(bad) && !failed.includes(good));
      const endpointOnly = JSON.parse(await logs('--endpoint', plain, '--json'));
      assert.deepEqual(
        endpointOnly.logs.map((l: { id: string }) => l.id),
        [good],
      );
      const searched = JSON.parse(await logs('--search', 'findme', '--json'));
      assert.deepEqual(
        searched.logs.map((l: { id: string }) => l.id),
        [bad],
      );

      const page = await logs('--limit', '1');
      assert.match(page, /^1-1 of 2; next page: --offset 1$/m);
      const json = JSON.parse(await logs('--limit', '1', '--offset', '1', '--json'));
      assert.equal(json.limit, 1);
      assert.equal(json.offset, 1);
      assert.equal(json.logs[0].id, good);
    },
  );

  test(
    'logs show: summary, the headers table in received order and case, and the body; --json; --body-only',
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async () => {
      const ep = await t.endpoint({ name: 'show', validationType: 'none' });
      const body = '{"hello": "world"}\n';
      const id = (
        await t.deliver(`/webhook/${ep}/a/b?q=1`, {
          body,
          headers: { 'content-type': 'application/json', 'X-Zeta': 'last', 'X-Alpha': 'first' },
        })
      ).body.data.id;

      const out = await ok('logs', 'show', id);
      assert.match(out, new RegExp(`^id\\s+${id}$`, 'm'));
      assert.match(out, /^request\s+POST \/a\/b\?q=1$/m);
      assert.match(out, /^status\s+success \(none: skipped\)$/m);
      assert.match(out, /^Headers \(\d+\)\nNAME\s+VALUE$/m);
      assert.match(out, /^X-Zeta\s+last\nX-Alpha\s+first$/m, 'received order and case');
      assert.ok(out.endsWith(`Body\n${body}\n`), out);

      const json = JSON.parse(await ok('logs', 'show', id, '--json'));
      assert.equal(json.body, body);
      assert.equal(json.bodyEncoding, 'utf8');
      assert.deepEqual(
        json.rawHeaders.find((h: string[]) => h[0] === 'X-Alpha'),
        ['X-Alpha', 'first'],
      );

      assert.equal(await ok('logs', 'show', id, '--body-only'), body, 'exactly the bytes, nothing added');

      const missing = await cli('logs', 'show', 'log_missing');
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /^hookscope: .*\(LOG_NOT_FOUND, HTTP 404\)\n$/);
    },
  );

  test('logs show: a binary body is shown as base64 with a note; --body-only prints its bytes', async () => {
    const ep = await t.endpoint({ name: 'bin', validationType: 'none' });
    const bytes = Buffer.from([0x00, 0xff, 0xfe, 0x10, 0x80]);
    const id = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${t.engine.receiverUrl}/webhook/${ep}`,
        { method: 'POST', headers: { 'content-type': 'application/octet-stream' } },
        (res) => {
          let s = '';
          res.on('data', (c: Buffer) => (s += c.toString()));
          res.on('end', () => resolve(JSON.parse(s).data.id));
        },
      );
      req.on('error', reject);
      req.end(bytes);
    });
    const out = await ok('logs', 'show', id);
    assert.ok(out.endsWith(`Body (binary, shown as base64)\n${bytes.toString('base64')}\n`), out);
    const only = await runCliBytes(['logs', 'show', id, '--body-only', '--data-dir', t.dataDir]);
    assert.equal(only.code, 0, only.stderr);
    assert.ok(only.stdout.equals(bytes), only.stdout.toString('hex'));
    assert.equal(only.stderr, '');
  });

  test('colour on request (FORCE_COLOR), never with NO_COLOR', async () => {
    // A delivery of its own, so the table has a row whatever ran before.
    const ep = await t.endpoint({ name: 'colour', validationType: 'none' });
    assert.equal((await t.deliver(`/webhook/${ep}`, { body: 'x' })).status, 200);
    const coloured = await runCli(['logs', '--data-dir', t.dataDir], { NO_COLOR: '', FORCE_COLOR: '1' });
    assert.equal(coloured.code, 0, coloured.stderr);
    assert.ok(ANSI.test(coloured.stdout));
    const plain = await runCli(['logs', '--data-dir', t.dataDir], { NO_COLOR: '1', FORCE_COLOR: '1' });
    assert.ok(!ANSI.test(plain.stdout));
  });
});
