import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import Stripe from 'stripe';
import type { SecretInput } from '../../server/cli/cli-output.ts';
import { main } from '../../server/cli/main.ts';
import { formatDateTime } from '../../server/cli/render.ts';
import { spawnCli } from '../helpers/cli-spawn.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const stripe = new Stripe('sk_test_unused');
const WRONG = 'whsec_cli_typed_wrong_0001';
const RIGHT = 'whsec_cli_from_the_dashboard_0002';
const TYPED = 'whsec_cli_typed_at_the_prompt_0003';
const PIPED = 'whsec_cli_piped_on_stdin_0004';

/** A terminal as readline sees one: raw mode is recorded, keystrokes are what the test wrote. */
function terminal(keys: string): { input: SecretInput; rawModes: boolean[] } {
  const rawModes: boolean[] = [];
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: (mode: boolean) => rawModes.push(mode),
  });
  input.write(keys);
  return { input, rawModes };
}

const piped = (text: string): SecretInput => Readable.from([Buffer.from(text)]);

describe('hookscope endpoints set-secret against a running engine', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine();
  });
  after(() => t.stop());

  /** main() in this process, with the given standard input (none when absent), as the CLI's entry point runs it. */
  const cli = async (args: string[], stdin?: SecretInput, dataDir = t.dataDir) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main([...args, '--data-dir', dataDir], {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      env: { NO_COLOR: '1' },
      isTTY: false,
      ...(stdin ? { stdin: () => stdin } : {}),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const stripeEndpoint = () => t.endpoint({ name: 'stripe', validationType: 'stripe', webhookSecret: WRONG });
  const deliverSigned = async (id: string, secret: string) => {
    const body = '{"id":"evt_cli","type":"invoice.paid"}';
    const r = await t.deliver(`/webhook/${id}`, {
      body,
      headers: { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret }) },
    });
    return r.status;
  };
  const graceEnd = async (id: string) =>
    (await t.api('GET', `/api/endpoints/${id}`)).body.data.previousSecretExpiresAt as string | null;

  test('--secret: the endpoint verifies with the new secret on the same URL, and says until when the old one works', async () => {
    const id = await stripeEndpoint();
    const url = (await t.api('GET', `/api/endpoints/${id}`)).body.data.url;
    assert.equal(await deliverSigned(id, RIGHT), 400);

    const r = await cli(['endpoints', 'set-secret', id, '--secret', RIGHT]);
    assert.equal(r.code, 0, r.err);
    const until = await graceEnd(id);
    assert.ok(until !== null);
    assert.equal(
      r.out,
      `Secret set for endpoint ${id}: deliveries signed with it verify now; the URL is unchanged.\n` +
        `The previous secret is still accepted until ${formatDateTime(until)}.`,
    );
    assert.equal(r.err, '');
    assert.equal(await deliverSigned(id, RIGHT), 200);
    assert.equal(await deliverSigned(id, WRONG), 200, 'the previous secret is accepted during the grace period');
    assert.equal((await t.api('GET', `/api/endpoints/${id}`)).body.data.url, url);

    const shown = await cli(['endpoints', 'show', id]);
    assert.match(shown.out, new RegExp(`^previous secret\\s+accepted until ${formatDateTime(until)}$`, 'm'));

    const json = await cli(['endpoints', 'set-secret', id, '--secret', RIGHT, '--json']);
    assert.equal(json.code, 0, json.err);
    assert.deepEqual(JSON.parse(json.out), { id, previousSecretExpiresAt: until });
  });

  test('without --secret, a real process reads it from a pipe (the trailing line break dropped) and never prints it', async () => {
    const id = await stripeEndpoint();
    const child = spawnCli(['endpoints', 'set-secret', id, '--data-dir', t.dataDir, '--json']);
    child.child.stdin!.end(`${PIPED}\n`);
    assert.equal(await child.exited, 0, child.stderr());
    assert.deepEqual(JSON.parse(child.stdout()), { id, previousSecretExpiresAt: await graceEnd(id) });
    assert.equal(child.stderr(), '');
    assert.ok(!child.stdout().includes(PIPED));
    assert.equal(await deliverSigned(id, PIPED), 200);
  });

  test('at a terminal it prompts on stderr and reads one line without echoing it, then restores the terminal', async () => {
    const id = await stripeEndpoint();
    const { input, rawModes } = terminal(`${TYPED}\r`);
    const r = await cli(['endpoints', 'set-secret', id], input);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, 'Paste or type the signing secret, then press Enter (it is not shown):');
    assert.deepEqual(rawModes, [true, false], 'echo off while reading, back on after');
    assert.ok(!r.out.includes(TYPED) && !r.err.includes(TYPED), 'the secret is not shown');
    assert.equal(await deliverSigned(id, TYPED), 200);
  });

  test('no secret given, several lines, or a flood on stdin: exit 2 with the reason, nothing changed', async () => {
    const id = await stripeEndpoint();
    const cases: [SecretInput | undefined, string][] = [
      [undefined, 'hookscope: --secret is required here (no standard input to read it from).'],
      [piped(''), 'hookscope: No secret was given: type or pipe it in, or pass --secret.'],
      [piped('\r\n'), 'hookscope: No secret was given: type or pipe it in, or pass --secret.'],
      [
        piped(`${RIGHT}\n${WRONG}\n`),
        'hookscope: The secret on standard input spans several lines; a signing secret is one line.',
      ],
      [
        piped('x'.repeat(16 * 1024 + 1)),
        'hookscope: More than 16384 bytes on standard input; a signing secret is far shorter.',
      ],
      [terminal('\u0004').input, 'hookscope: No secret was entered.'], // Ctrl+D
    ];
    for (const [stdin, message] of cases) {
      const r = await cli(['endpoints', 'set-secret', id], stdin);
      assert.equal(r.code, 2, message);
      assert.equal(r.err.split('\n').at(-1), message);
      assert.equal(r.out, '');
    }
    assert.equal(await graceEnd(id), null, 'the secret was never changed');
    assert.equal(await deliverSigned(id, WRONG), 200);
  });

  test("the engine's refusals: exit 1 with its sentence and code", async () => {
    const none = await t.endpoint({ name: 'open', validationType: 'none' });
    const unsigned = await cli(['endpoints', 'set-secret', none, '--secret', RIGHT]);
    assert.equal(unsigned.code, 1);
    assert.equal(
      unsigned.err,
      `hookscope: Endpoint ${none} checks no signature (validationType none), so it has no secret to set; to verify deliveries, create an endpoint of a signed type (stripe, github, shopify, slack, standard_webhooks, hmac_sha256). (SECRET_NOT_APPLICABLE, HTTP 409)`,
    );

    const missing = await cli(['endpoints', 'set-secret', 'ep_nope', '--secret', RIGHT]);
    assert.equal(missing.code, 1);
    assert.equal(missing.err, 'hookscope: Endpoint ep_nope was not found. (ENDPOINT_NOT_FOUND, HTTP 404)');

    const sw = await t.endpoint({
      name: 'sw',
      validationType: 'standard_webhooks',
      webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });
    const bad = await cli(['endpoints', 'set-secret', sw], piped('not base64!\n'));
    assert.equal(bad.code, 1);
    assert.equal(
      bad.err,
      'hookscope: webhookSecret for standard_webhooks must be whsec_<base64> or plain base64 (padded, decoding to at least 1 byte), as the sender shows it. (VALIDATION_ERROR, HTTP 400)',
    );
  });

  test('a stopped engine is reported before the secret is asked for', async () => {
    const dir = await makeTempDir();
    try {
      const { input, rawModes } = terminal(`${TYPED}\r`);
      const r = await cli(['endpoints', 'set-secret', 'ep_any'], input, dir);
      assert.equal(r.code, 1);
      assert.match(r.err, /^hookscope: No Hookscope engine is running for /);
      assert.ok(!r.err.includes('Paste or type'), 'no prompt');
      assert.deepEqual(rawModes, []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('--help explains standard input, the examples and the exit codes; a missing id is a usage error', async () => {
    const help = await cli(['endpoints', 'set-secret', '--help']);
    assert.equal(help.code, 0);
    for (const part of [
      'Usage: hookscope endpoints set-secret [options] <id>',
      '--secret <secret>',
      '--json',
      'Without --secret the secret is read from standard input',
      'pbpaste | hookscope endpoints set-secret ep_123',
      'Exit code 0 when the secret is set',
    ]) {
      assert.ok(help.out.includes(part), `${part}\n${help.out}`);
    }
    const listed = await cli(['endpoints', '--help']);
    assert.match(listed.out, /set-secret \[options\] <id>\s+Set a signed endpoint's secret/);

    const noId = await cli(['endpoints', 'set-secret', '--secret', RIGHT]);
    assert.equal(noId.code, 2);
    assert.match(noId.err, /missing required argument 'id'/);
  });
});
