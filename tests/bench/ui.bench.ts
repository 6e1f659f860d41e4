// The inspector UI in Debian's Chromium against a real `hookscope serve`:
// how long the first screen takes with a full list, and how long a delivery
// takes from its 2xx to its row in the page while other deliveries keep coming.
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import type { Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { runCli, startServe } from '../helpers/cli-process.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { webhookBody } from './load.ts';
import { apiGet, summarize, type Timings } from './timing.ts';

export interface UiOptions {
  /** Deliveries in the store before the page opens (the default retention keeps 10,000). */
  deliveries: number;
  /** Page loads timed after the first (cold) one. */
  renders: number;
  /** Marked deliveries whose row is waited for, one every `sampleEveryMs`. */
  samples: number;
  sampleEveryMs: number;
  /** Unmarked deliveries per second sent meanwhile, as the load. */
  backgroundRate: number;
}

export interface UiResult {
  options: UiOptions;
  /** What the list API reported before the page opened. */
  listed: number;
  seedMs: number;
  /** The first page load, with an empty HTTP cache. */
  coldRenderMs: number;
  /** The later page loads (hashed assets cached, as on every launch after the first). */
  render: Timings;
  /** From the 2xx of a marked delivery to its row in the page's DOM. */
  rowLatency: Timings;
  /** Marked deliveries (their numbers, in sending order) whose row had not appeared 5 s after the last one was sent. */
  missed: number[];
  /** Unmarked deliveries (sent one every 1000/backgroundRate ms) answered 2xx meanwhile. */
  backgroundOk: number;
}

const ROOT = new URL('../../', import.meta.url).pathname;
const ROW = '.row .path';
const MARK = 'ui-bench-';
const now = (): number => performance.timeOrigin + performance.now();

/**
 * Records, in the page, when each marked path first shows in a row: a
 * MutationObserver callback runs right after the DOM change, before paint.
 * A string, because the page's CSP refuses nothing Playwright sends this way,
 * and a transpiled function could carry helpers the page does not have.
 */
const WATCH_ROWS = `(() => {
  const seen = new Map();
  window.__uiBenchSeen = seen;
  const scan = () => {
    const t = performance.timeOrigin + performance.now();
    for (const el of document.querySelectorAll(${JSON.stringify(ROW)})) {
      const m = /${MARK}(\\d+)/.exec(el.textContent || '');
      if (m && !seen.has(m[1])) seen.set(m[1], t);
    }
  };
  new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, characterData: true });
  scan();
})()`;

async function timeFirstRender(page: Page, url: string): Promise<number> {
  const t0 = performance.now();
  await page.goto(url);
  await page.locator('.row').first().waitFor({ timeout: 30_000 });
  return performance.now() - t0;
}

export async function benchUi(o: UiOptions, log: (line: string) => void): Promise<UiResult> {
  log('ui: building the renderer');
  const build = spawnSync('npm', ['run', '--silent', 'build:renderer'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build:renderer failed: ${build.stderr}${build.stdout}`);

  const dataDir = await makeTempDir('hookscope-bench-ui-');
  // The rate limit is off so seeding is not answered with 429; everything else is the default.
  const serve = await startServe(dataDir, [], { HOOKSCOPE_RATE_LIMIT_PER_SECOND: '0' });
  const browser = await launchChromium();
  try {
    if (!serve.apiUrl.startsWith('http://127.0.0.1:')) throw new Error(`loopback only, not ${serve.apiUrl}`);
    const token = (await runCli(['token', '--data-dir', dataDir])).stdout.trim();
    const created = await fetch(`${serve.apiUrl}/api/endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'UI bench', validationType: 'none' }),
    });
    const endpoint = ((await created.json()) as { data: { id: string; url: string } }).data;

    log(`ui: seeding ${o.deliveries.toLocaleString('en-US')} deliveries through the receiver`);
    const t0 = performance.now();
    const seeded = await autocannon({
      url: `${endpoint.url}/seed`,
      method: 'POST',
      connections: 16,
      amount: o.deliveries,
      timeout: 10,
      headers: { 'content-type': 'application/json' },
      body: webhookBody(1024),
    });
    if (seeded['2xx'] !== o.deliveries) throw new Error(`seeding: ${seeded['2xx']} of ${o.deliveries} answered 2xx`);
    const page1 = await apiGet<{ data: { total: number } }>(serve.apiUrl, token, '/api/webhooks/logs?limit=1');
    const seedMs = performance.now() - t0;
    const listed = page1.data.total;

    log('ui: signing in, then timing first renders');
    const page = await browser.context.newPage();
    const link = (await runCli(['open', '--print', '--data-dir', dataDir])).stdout.trim();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor({ timeout: 30_000 });
    await page.close();
    const home = `${serve.apiUrl}/#/`;
    const renders: number[] = [];
    let coldRenderMs = 0;
    for (let i = 0; i <= o.renders; i++) {
      const p = await browser.context.newPage();
      const ms = await timeFirstRender(p, home);
      if (i === 0) coldRenderMs = ms;
      else renders.push(ms);
      await p.close();
    }

    log(`ui: ${o.samples} marked deliveries under ${o.backgroundRate}/s of others`);
    const live = await browser.context.newPage();
    await timeFirstRender(live, home);
    await live.getByText('Live', { exact: true }).first().waitFor({ timeout: 30_000 });
    await live.evaluate(WATCH_ROWS);
    // Sent one at a time at a steady pace (autocannon's overallRate sends each second's
    // share in a burst, which pushes rows out of view before the page can draw them).
    let backgroundOk = 0;
    const inFlight = new Set<Promise<void>>();
    const backgroundTimer = setInterval(() => {
      const sent = fetch(`${endpoint.url}/background`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: webhookBody(1024),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status === 200) backgroundOk += 1;
        })
        .catch(() => undefined)
        .finally(() => inFlight.delete(sent));
      inFlight.add(sent);
    }, 1000 / o.backgroundRate);
    const acked = new Map<string, number>();
    for (let i = 0; i < o.samples; i++) {
      const res = await fetch(`${endpoint.url}/${MARK}${i}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: webhookBody(1024),
      });
      const at = now();
      await res.arrayBuffer();
      if (res.status === 200) acked.set(String(i), at);
      await sleep(o.sampleEveryMs);
    }
    clearInterval(backgroundTimer);
    await Promise.all(inFlight);
    await sleep(5_000);
    const seen = new Map<string, number>(JSON.parse(await live.evaluate('JSON.stringify([...window.__uiBenchSeen])')));
    const latencies: number[] = [];
    for (const [i, at] of acked) {
      const shown = seen.get(i);
      if (shown !== undefined) latencies.push(Math.max(0, shown - at));
    }
    return {
      options: o,
      listed,
      seedMs,
      coldRenderMs,
      render: summarize(renders),
      rowLatency: summarize(latencies),
      missed: [...acked.keys()].filter((i) => !seen.has(i)).map(Number),
      backgroundOk,
    };
  } finally {
    await browser.close();
    serve.child.kill('SIGTERM');
    await serve.exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}
