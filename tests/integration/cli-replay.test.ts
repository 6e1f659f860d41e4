import assert from 'node:assert/strict';
import { after, before, describe, test } from '../helpers/node-test.ts';
import Stripe from 'stripe';
import { runCli } from '../helpers/cli-process.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const stripe = new Stripe('sk_test_unused');
const STRIPE_SECRET = 'whsec_cli_replay_secret';

describe('hookscope replay and history against a running engine and a local target', () => {
  let t: TestEngine;
  let target: TargetServer;
  let logId: string;
  const body = '{"order":42,"note":"exact bytes"}\n';
  const cli = (...args: string[]) => runCli([...args, '--data-dir', t.dataDir]);

  before(async () => {
    t = await startTestEngine();
    target = await TargetServer.start((req) =>
      req.url.startsWith('/broken')
        ? { status: 500, body: 'handler crashed' }
        : req.url.startsWith('/slow')
          ? { hang: true }
          : { status: 200, headers: { 'x-handler': 'dev' }, body: 'handled' },
    );
    const ep = await t.endpoint({ name: 'orders', validationType: 'none' });
    logId = (
      await t.deliver(`/webhook/${ep}/orders`, {
        body,
        headers: { 'content-type': 'application/json', 'X-Trace': 'abc' },
      })
    ).body.data.id;
  });
  after(async () => {
    await target.close();
    await t.stop();
  });

  test('replay sends the exact delivery and prints the answer; --method overrides; --json', async () => {
    const r = await cli('replay', logId, '--to', `${target.url}/hooks`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^POST ${target.url}/hooks -> 200 OK in \\d+ ms \\(rp_\\w+\\)$`, 'm'));
    assert.match(r.stdout, /^x-handler\s+dev$/im);
    assert.match(r.stdout, /Response body\nhandled\n$/);
    const sent = target.received.at(-1)!;
    assert.equal(sent.method, 'POST');
    assert.equal(sent.url, '/hooks');
    assert.equal(sent.body.toString(), body);
    assert.equal(sent.headers['x-trace'], 'abc');

    const json = JSON.parse(
      (await cli('replay', logId, '--to', `${target.url}/put`, '--method', 'put', '--json')).stdout,
    );
    assert.equal(json.method, 'PUT');
    assert.equal(json.status, 200);
    assert.match(json.id, /^rp_/);
    assert.equal(target.received.at(-1)!.method, 'PUT');
  });

  test('a target answering 5xx, an unreachable one and a timeout exit 1 (each recorded)', async () => {
    const broken = await cli('replay', logId, '--to', `${target.url}/broken`);
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /-> 500 Internal Server Error/);
    assert.match(broken.stdout, /handler crashed/);

    const port = (await closedPort()).port;
    const down = await cli('replay', logId, '--to', `http://127.0.0.1:${port}/x`);
    assert.equal(down.code, 1);
    assert.match(down.stderr, /^hookscope: .*\(TARGET_UNREACHABLE, HTTP 502\)\n$/);

    const slow = await cli('replay', logId, '--to', `${target.url}/slow`, '--timeout', '300');
    assert.equal(slow.code, 1);
    assert.match(slow.stderr, /^hookscope: .*\(TARGET_TIMEOUT, HTTP 504\)\n$/);
  });

  test('--resign signs again with a fresh timestamp that the Stripe SDK accepts', async () => {
    const ep = await t.endpoint({
      name: 'stripe',
      validationType: 'stripe',
      webhookSecret: STRIPE_SECRET,
      toleranceSeconds: 3600,
    });
    const payload = JSON.stringify({ id: 'evt_cli', object: 'event' });
    const stale = Math.floor(Date.now() / 1000) - 1200;
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET, timestamp: stale });
    const id = (await t.deliver(`/webhook/${ep}`, { body: payload, headers: { 'Stripe-Signature': header } })).body.data
      .id;

    const r = await cli('replay', id, '--to', `${target.url}/stripe`, '--resign', '--json');
    assert.equal(r.code, 0, r.stderr);
    const sent = target.received.at(-1)!;
    const resigned = sent.headers['stripe-signature'] as string;
    assert.notEqual(resigned, header);
    assert.equal(
      (stripe.webhooks.constructEvent(sent.body.toString(), resigned, STRIPE_SECRET) as { id: string }).id,
      'evt_cli',
    );
  });

  test('history lists the replays newest first; --json', async () => {
    // Its own log and replays: the other tests' replays are theirs.
    const ep = await t.endpoint({ name: 'history', validationType: 'none' });
    const id = (await t.deliver(`/webhook/${ep}/history`, { body })).body.data.id as string;
    const replay = (input: Record<string, unknown>) => t.api('POST', `/api/replay/${id}`, { body: input });
    assert.equal((await replay({ targetUrl: `${target.url}/hooks` })).status, 200);
    assert.equal((await replay({ targetUrl: `${target.url}/put`, method: 'PUT' })).status, 200);
    assert.equal((await replay({ targetUrl: `${target.url}/broken` })).status, 200);
    assert.equal((await replay({ targetUrl: `${(await closedPort()).url}/x` })).status, 502);
    assert.equal((await replay({ targetUrl: `${target.url}/slow`, timeoutMs: 300 })).status, 504);

    const r = await cli('history', id);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^TIME\s+ID\s+TRIGGER\s+METHOD\s+TARGET\s+STATUS\s+TIME TAKEN\s+ERROR$/);
    assert.match(
      lines[1]!,
      new RegExp(`rp_\\w+\\s+manual\\s+POST\\s+${target.url}/slow\\s+no response\\s+\\d+ ms\\s+TARGET_TIMEOUT: `),
    );
    assert.ok(
      lines.some((l) => new RegExp(`manual\\s+PUT\\s+${target.url}/put\\s+200 OK`).test(l)),
      r.stdout,
    );
    const json = JSON.parse((await cli('history', id, '--json')).stdout);
    assert.equal(json.total, 5);
    assert.deepEqual(
      json.history.map((h: { status: number | null }) => h.status),
      [null, null, 500, 200, 200],
    );
  });

  test('bad flags exit 2', async () => {
    for (const args of [
      ['replay', logId],
      ['replay', logId, '--to', 'localhost:3000'],
      ['replay', logId, '--to', target.url, '--method', 'FETCH'],
      ['replay', logId, '--to', target.url, '--timeout', '0'],
      ['history', logId, '--limit', 'x'],
    ]) {
      const r = await cli(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    }
  });
});
