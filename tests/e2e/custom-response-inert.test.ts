import assert from 'node:assert/strict';
import { launchChromium, type Browser } from '../helpers/chromium.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/**
 * The takeover a review found: another account of the install made an
 * endpoint whose custom response was an HTML page with a script, and the
 * owner opened its URL on the API port, the UI's origin. The script ran there
 * with the owner's session cookie and repointed the owner-only tunnel. Now the
 * API port answers deliveries with the plain JSON envelope, and a custom
 * response anywhere is sandboxed: no script runs, nothing is fetched.
 */
const HOSTILE_PAGE = [
  '<!doctype html><title>invoice</title>',
  '<script>',
  'window.__pwned = 1;',
  "fetch('/api/tunnel', { method: 'POST', credentials: 'include',",
  "  headers: { 'content-type': 'application/json', 'x-hookscope-request': '1' },",
  "  body: JSON.stringify({ host: 'http://attacker.invalid' }) });",
  "fetch('/api/session/codes', { method: 'POST', credentials: 'include', headers: { 'x-hookscope-request': '1' } });",
  '</script>',
  '<img src="x" onerror="window.__pwned = 2">',
].join('\n');

describe('a custom response chosen by another account, opened by the owner in Chromium', () => {
  let browser: Browser;
  let t: TestEngine;
  let endpointId = '';

  before(async () => {
    t = await startTestEngine();
    browser = await launchChromium();
    const mallory = await t.engine.issueToken('mallory');
    endpointId = await t.endpoint(
      {
        name: 'looks harmless',
        validationType: 'none',
        customResponse: { status: 200, headers: [{ name: 'Content-Type', value: 'text/html' }], body: HOSTILE_PAGE },
      },
      mallory,
    );
    // The owner signs in to the UI as a user does, so the page holds the owner's session cookie.
    const page = await browser.context.newPage();
    try {
      await page.goto(await t.engine.signInUrl());
      await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    } finally {
      await page.close();
    }
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  test('on the API port (the UI origin) the delivery URL answers only the JSON envelope; no script runs', async () => {
    const page = await browser.context.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    try {
      const url = `${t.engine.apiUrl}/webhook/${endpointId}`;
      const res = await page.goto(url);
      assert.equal(res?.status(), 200);
      assert.equal(res?.headers()['content-type'], 'application/json; charset=utf-8');
      const answer = JSON.parse(await page.locator('body').innerText());
      assert.equal(answer.success, true);
      assert.match(answer.data.id, /^log_/);
      assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined', 'no script ran');
      assert.deepEqual(requested, [url], 'nothing but the delivery URL was requested');
    } finally {
      await page.close();
    }
    const tunnel = (await t.api('GET', '/api/tunnel')).body.data;
    assert.equal(tunnel.host, 'https://localtunnel.me', 'the owner-only tunnel setting is unchanged');
  });

  test('on the receiver port the custom response is sent, sandboxed: no script, no image, no request to the API', async () => {
    const page = await browser.context.newPage();
    // Chromium reports what the page tried to load; CSP stops it before it is sent.
    const sent: string[] = [];
    const blocked: string[] = [];
    page.on('requestfinished', (r) => sent.push(r.url()));
    page.on('requestfailed', (r) => blocked.push(`${new URL(r.url()).pathname} ${r.failure()?.errorText}`));
    try {
      const url = `${t.engine.receiverUrl}/webhook/${endpointId}`;
      const res = await page.goto(url);
      assert.equal(res?.status(), 200);
      const headers = res.headers();
      assert.equal(headers['content-security-policy'], "sandbox; default-src 'none'");
      assert.equal(headers['x-content-type-options'], 'nosniff');
      assert.equal(headers['set-cookie'], undefined);
      assert.equal(await page.title(), 'invoice', 'the page is the sender-chosen one');
      assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined', 'no script ran');
      assert.deepEqual(sent, [url], 'the page loaded nothing: no image, no fetch to the API');
      assert.deepEqual(blocked, ['/webhook/x csp'], 'the image was refused by the policy');
    } finally {
      await page.close();
    }
    const tunnel = (await t.api('GET', '/api/tunnel')).body.data;
    assert.equal(tunnel.host, 'https://localtunnel.me');
  });
});
