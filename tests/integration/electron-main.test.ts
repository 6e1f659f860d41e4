// The desktop app's main process, compiled (dist/electron/main.js), run under
// plain Node with a stand-in for the `electron` module (tests/helpers/electron-stand-in):
// Electron's binary cannot be downloaded here, so this is how its wiring is
// tested end to end, against a real engine. The stand-in records what the main
// process asks of Electron and calls the handlers it is given, as Electron would
// (tests/helpers/electron-stand-in/electron.mjs); the engine is reached over HTTP
// as the window would.
import assert from 'node:assert/strict';
import { DESKTOP_BRIDGE_CALLS } from '../helpers/desktop-bridge-calls.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Stripe from 'stripe';
import { BRIDGE_CHANNELS } from '../../electron/desktop-bridge.ts';
import { secureWebPreferences } from '../../electron/web-preferences.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { startTestEngine } from '../helpers/test-engine.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const MAIN = join(ROOT, 'dist/electron/main.js');
const REGISTER = new URL('../helpers/electron-stand-in/register.mjs', import.meta.url).pathname;
const newDir = tempDirs('hookscope-electron-main-');
const stripe = new Stripe('sk_test_unused');
// Every main process started here, ended once the file is done: a test that timed out
// never reaches its own `finally`, and its process would keep the file from ending.
const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) child.kill('SIGKILL');
});

interface Recorded {
  ev: string;
  [key: string]: any;
}

interface RunningApp {
  child: ChildProcess;
  apiUrl: string;
  receiverUrl: string;
  events(): Promise<Recorded[]>;
  /** Resolves to the first recorded event `match` accepts, polling the log. */
  waitFor(match: (e: Recorded) => boolean, what: string): Promise<Recorded>;
  exited: Promise<number | null>;
  output(): string;
}

/**
 * Starts the main process on a fresh or given data directory, the tunnel aimed at a closed loopback port;
 * unless `window` is false, waits for its window to load.
 */
async function launch(dataDir: string, env: NodeJS.ProcessEnv = {}, window = true): Promise<RunningApp> {
  assert.ok(existsSync(MAIN), 'dist/electron/main.js is missing: run npm run build:server');
  const logFile = join(await newDir(), 'electron.jsonl');
  await writeFile(logFile, '');
  const tunnelHost = await closedPort();
  const child = spawn(process.execPath, ['--import', REGISTER, MAIN], {
    env: {
      ...process.env,
      HOOKSCOPE_DATA_DIR: dataDir,
      HOOKSCOPE_API_PORT: '0',
      HOOKSCOPE_RECEIVER_PORT: '0',
      HOOKSCOPE_TUNNEL_HOST: tunnelHost.url,
      ELECTRON_STAND_IN_LOG: logFile,
      ...env,
    },
  });
  children.add(child);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const events = async (): Promise<Recorded[]> =>
    (await readFile(logFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Recorded);
  const waitFor = async (match: (e: Recorded) => boolean, what: string): Promise<Recorded> => {
    for (;;) {
      const found = (await events()).find(match);
      if (found) return found;
      if (child.exitCode !== null)
        throw new Error(`the main process exited (${child.exitCode}) before ${what}: ${out}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const app = { child, events, waitFor, exited, output: () => out, apiUrl: '', receiverUrl: '' };
  if (!window) return app;
  await waitFor((e) => e.ev === 'loadURL', 'the window loaded');
  const runtime = JSON.parse(await readFile(join(dataDir, 'runtime.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(runtime.pid, child.pid, 'runtime.json names the desktop app, so the CLI finds its engine');
  return { ...app, apiUrl: String(runtime.apiUrl), receiverUrl: String(runtime.receiverUrl) };
}

const menuOf = (e: Recorded): { label?: string; enabled?: boolean; type?: string; checked?: boolean }[] =>
  e.items as never;

describe('the desktop main process under a stand-in Electron', () => {
  test(
    'starts the engine, opens a hardened window signed in at the API origin, shows the tunnel in the tray, ' +
      'notifies a failed delivery and opens it on click, and quits with a checkpoint',
    async () => {
      const dataDir = await newDir();
      const app = await launch(dataDir, { ELECTRON_STAND_IN_CLICK: '1' });
      try {
        const events = await app.events();
        const window = events.find((e) => e.ev === 'BrowserWindow')!;
        assert.deepEqual(window.options.webPreferences, secureWebPreferences(join(ROOT, 'dist/electron/preload.cjs')));
        // The preload ran and put exactly the desktop bridge on the page.
        assert.deepEqual(
          events.filter((e) => e.ev === 'contextBridge.exposeInMainWorld').map((e) => [e.name, e.keys]),
          [['hookscopeDesktop', DESKTOP_BRIDGE_CALLS]],
        );
        assert.equal(window.options.width, 1280);
        assert.equal(window.options.height, 820);
        assert.equal(window.options.show, false);
        assert.equal(window.options.icon, join(ROOT, 'electron/icons/icon.png'));
        // Every handler is in place before the first page loads (what each one answers: the next test).
        const firstLoad = events.findIndex((e) => e.ev === 'loadURL');
        for (const handler of [
          'session.setPermissionRequestHandler',
          'session.setPermissionCheckHandler',
          'session.setDevicePermissionHandler',
          'session.webRequest.onBeforeRequest',
          'webContents.setWindowOpenHandler',
        ]) {
          const at = events.findIndex((e) => e.ev === handler && e.set === true);
          assert.ok(at >= 0 && at < firstLoad, `${handler} before the first load`);
        }
        for (const channel of Object.values(BRIDGE_CHANNELS)) {
          const at = events.findIndex((e) => e.ev === 'ipcMain.handle' && e.channel === channel);
          assert.ok(at >= 0 && at < firstLoad, `the ${channel} handler before the first load`);
        }

        // The window's page is the engine's one-time sign-in link, at the API origin.
        const signIn = events[firstLoad]!.url as string;
        const code = signIn.slice(`${app.apiUrl}/#/sign-in/`.length);
        assert.ok(signIn.startsWith(`${app.apiUrl}/#/sign-in/`) && code.length > 20, signIn);
        const session = await fetch(`${app.apiUrl}/api/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code }),
        });
        assert.equal(session.status, 200);
        const cookie = session.headers.get('set-cookie')!.split(';')[0]!;

        // The tray: the tunnel is on by default in the desktop app (its server is down here).
        assert.equal(events.find((e) => e.ev === 'Tray')?.image, join(ROOT, 'electron/icons/tray.png'));
        const tray = await app.waitFor((e) => e.ev === 'tray.setContextMenu', 'the tray menu');
        const labels = menuOf(tray).map((i) => i.label ?? i.type);
        assert.match(labels[0]!, /^Tunnel (connecting|offline|error)$/);
        assert.deepEqual(labels.slice(1), [
          'Copy public URL',
          'separator',
          'Open Hookscope',
          'Sign in again',
          'Notify on failed deliveries',
          'separator',
          'Quit',
        ]);
        assert.equal(menuOf(tray)[1]!.enabled, false, 'no public URL to copy');
        assert.equal(menuOf(tray)[5]!.checked, true, 'notifications on by default');
        const tunnel = (await (await fetch(`${app.apiUrl}/api/tunnel`, { headers: { cookie } })).json()) as any;
        assert.equal(tunnel.data.enabled, true);

        // A delivery with a bad signature: a notification, whose click opens that delivery.
        const created = await fetch(`${app.apiUrl}/api/endpoints`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json', 'x-hookscope-request': '1' },
          body: JSON.stringify({ name: 'shop', validationType: 'stripe', webhookSecret: 'whsec_test_secret' }),
        });
        assert.equal(created.status, 201);
        const endpointId = ((await created.json()) as any).data.id as string;
        const payload = JSON.stringify({ id: 'evt_1', type: 'charge.succeeded' });
        const delivery = await fetch(`${app.receiverUrl}/webhook/${endpointId}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' }),
          },
          body: payload,
        });
        assert.equal(delivery.status, 400);
        const notice = await app.waitFor((e) => e.ev === 'notification.show', 'a notification');
        assert.equal(notice.title, 'Webhook delivery failed');
        assert.equal(
          notice.body,
          `POST to ${endpointId}: None of the 1 v1 signature(s) matches the endpoint's secret.`,
        );
        const logs = (await (await fetch(`${app.apiUrl}/api/webhooks/logs`, { headers: { cookie } })).json()) as any;
        const logId = logs.data.logs[0].id as string;
        await app.waitFor((e) => e.ev === 'loadURL' && e.url === `${app.apiUrl}/#/logs/${logId}`, 'the click');

        // Quit (as Ctrl+C through npm start): held until the engine stopped, then done.
        app.child.kill('SIGTERM');
        assert.equal(await app.exited, 0, app.output());
        const quits = (await app.events()).filter((e) => e.ev === 'app.quit').map((e) => e.held);
        assert.deepEqual(quits, [true, false]);
        assert.equal(existsSync(join(dataDir, 'runtime.json')), false, 'runtime.json removed');
        const engineLog = await readFile(join(dataDir, 'logs', 'engine.log'), 'utf8');
        assert.match(engineLog, /"msg":"checkpoint"/);
        assert.match(engineLog, /"msg":"engine stopped"/);
        assert.deepEqual(JSON.parse(await readFile(join(dataDir, 'window-state.json'), 'utf8')), {
          bounds: { x: 100, y: 80, width: 1280, height: 820 },
          maximized: false,
        });
      } finally {
        app.child.kill('SIGKILL');
      }
    },
  );

  test('"Sign in again" in the tray loads a fresh one-time sign-in link in the window', async () => {
    const app = await launch(await newDir(), { ELECTRON_STAND_IN_TRAY_CLICK: 'Sign in again' });
    try {
      await app.waitFor((e) => e.ev === 'tray.click', 'the tray click');
      const prefix = `${app.apiUrl}/#/sign-in/`;
      const signIn = (e: Recorded): boolean => e.ev === 'loadURL' && String(e.url).startsWith(prefix);
      const firstLoad = await app.waitFor(signIn, 'the first sign-in');
      const trayLoad = await app.waitFor((e) => signIn(e) && e.url !== firstLoad.url, 'the sign-in the tray asked for');
      const [first, again] = [firstLoad, trayLoad].map((e) => String(e.url).slice(prefix.length));
      assert.notEqual(again, first, 'a new code, not the spent one');
      const session = await fetch(`${app.apiUrl}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: again }),
      });
      assert.equal(session.status, 200, 'the new link signs in');
      assert.ok(
        (await app.events()).some((e) => e.ev === 'window.show'),
        'the window is shown',
      );
    } finally {
      app.child.kill('SIGKILL');
    }
  });

  test(
    "the window's handlers, called as Electron calls them: only the UI's routes stay, web links go to the " +
      'browser, permissions and devices are denied but clipboard writes from the app, remote requests are cancelled',
    async () => {
      const probes = {
        links: [
          '/#/metrics',
          '/webhook/ep_probe',
          '/webhook/ep_probe/deep?x=1',
          '/share/token123',
          '/api/openapi.json',
          'https://example.com/docs',
          'file:///etc/passwd',
        ],
        permissions: [
          ['clipboard-sanitized-write', '/#/logs'],
          ['media', '/#/logs'],
          ['notifications', '/'],
          ['clipboard-sanitized-write', 'https://example.com/'],
        ],
        devices: true,
        requests: ['/assets/index.js', '/api/events', 'https://example.com/tracker.js', 'http://127.0.0.1:1/x'],
      };
      const app = await launch(await newDir(), { ELECTRON_STAND_IN_PROBES: JSON.stringify(probes) });
      try {
        await app.waitFor((e) => e.ev === 'probe.request' && e.url === 'http://127.0.0.1:1/x', 'the probes');
        const events = await app.events();
        const at = (path: string): string => new URL(path, app.apiUrl).href;

        const navigations = events
          .filter((e) => e.ev === 'probe.navigate')
          .map((e) => `${e.via} ${e.url} ${e.prevented ? 'refused' : 'stays'}`);
        const expected: string[] = [];
        for (const link of probes.links) {
          const stays = link === '/#/metrics';
          for (const via of ['will-navigate', 'will-redirect'])
            expected.push(`${via} ${at(link)} ${stays ? 'stays' : 'refused'}`);
        }
        assert.deepEqual(navigations, expected);
        assert.deepEqual(
          events.filter((e) => e.ev === 'probe.windowOpen').map((e) => e.action),
          probes.links.map(() => 'deny'),
          'window.open never makes a window',
        );
        // Only the web link of another origin reaches the browser: once per way it was tried.
        assert.deepEqual(
          events.filter((e) => e.ev === 'shell.openExternal').map((e) => e.url),
          ['https://example.com/docs', 'https://example.com/docs', 'https://example.com/docs'],
        );

        assert.deepEqual(
          events
            .filter((e) => e.ev === 'probe.permissionRequest' || e.ev === 'probe.permissionCheck')
            .map((e) => `${e.ev} ${e.permission} ${e.url ?? e.origin} ${e.granted}`),
          [
            `probe.permissionRequest clipboard-sanitized-write ${at('/#/logs')} true`,
            `probe.permissionCheck clipboard-sanitized-write ${app.apiUrl} true`,
            `probe.permissionRequest media ${at('/#/logs')} false`,
            `probe.permissionCheck media ${app.apiUrl} false`,
            `probe.permissionRequest notifications ${at('/')} false`,
            `probe.permissionCheck notifications ${app.apiUrl} false`,
            'probe.permissionRequest clipboard-sanitized-write https://example.com/ false',
            'probe.permissionCheck clipboard-sanitized-write https://example.com false',
          ],
        );
        assert.equal(events.find((e) => e.ev === 'probe.devicePermission')?.granted, false);
        assert.deepEqual(
          events.filter((e) => e.ev === 'probe.request').map((e) => `${e.url} ${e.cancel ? 'cancelled' : 'loads'}`),
          [
            `${at('/assets/index.js')} loads`,
            `${at('/api/events')} loads`,
            'https://example.com/tracker.js cancelled',
            'http://127.0.0.1:1/x cancelled',
          ],
        );
        app.child.kill('SIGTERM');
        assert.equal(await app.exited, 0, app.output());
      } finally {
        app.child.kill('SIGKILL');
      }
    },
  );

  test(
    "the desktop bridge: only the page at the current origin is answered; connecting loads the team server's " +
      'sign-in link and the session rules follow it; "Use this computer" comes back',
    async () => {
      const team = await startTestEngine();
      try {
        const teamUrl = new URL(team.engine.apiUrl).origin;
        const link = await team.engine.signInUrl();
        const forward = { endpointId: 'ep_one', targetUrl: 'http://127.0.0.1:9/hooks', signInCode: 'abc' };
        const steps = [
          // Before any switch: a main frame of another origin, and an iframe, are refused.
          {
            invoke: BRIDGE_CHANNELS.connectTeamServer,
            args: [{ url: teamUrl, signInLink: link }],
            from: { origin: 'https://evil.example.com' },
          },
          { invoke: BRIDGE_CHANNELS.engine, from: { subframe: true } },
          { bridge: 'engine' },
          { bridge: 'connectTeamServer', args: [{ url: 'http://hooks.example.com', signInLink: link }] },
          {
            bridge: 'connectTeamServer',
            args: [{ url: teamUrl, signInLink: 'https://evil.example.com/#/sign-in/abc' }],
          },
          { bridge: 'connectTeamServer', args: [{ url: teamUrl, signInLink: link }] },
          { bridge: 'engine' },
          // Forwarding from this computer: for the team server shown, asked by its page only, its target checked.
          {
            invoke: BRIDGE_CHANNELS.startForwardFromThisComputer,
            args: [forward],
            from: { origin: '{local}' },
          },
          { bridge: 'forwardsFromThisComputer' },
          { bridge: 'startForwardFromThisComputer', args: [{ ...forward, targetUrl: 'http://10.0.0.5/hooks' }] },
          { bridge: 'stopForwardFromThisComputer', args: [{ endpointId: 'ep_one' }] },
          {
            probes: {
              links: ['/#/metrics', '/api/openapi.json', '{local}/#/metrics'],
              permissions: [
                ['clipboard-sanitized-write', '/#/logs'],
                ['clipboard-sanitized-write', '{local}/#/logs'],
              ],
              requests: ['/assets/index.js', '{local}/api/events', 'https://example.com/tracker.js'],
            },
          },
          // The local engine's page, gone from the window, is no longer answered.
          { invoke: BRIDGE_CHANNELS.useThisComputer, from: { origin: '{local}' } },
          { bridge: 'useThisComputer' },
          { bridge: 'engine' },
          { bridge: 'forwardsFromThisComputer' },
          { probes: { requests: [`${teamUrl}/assets/index.js`, '/assets/index.js'] } },
        ];
        const dataDir = await newDir();
        const app = await launch(dataDir, { ELECTRON_STAND_IN_STEPS: JSON.stringify(steps) });
        try {
          await app.waitFor(
            (e) => e.ev === 'probe.request' && e.url === `${app.apiUrl}/assets/index.js` && e.cancel === false,
            'the steps',
          );
          const events = await app.events();
          const local = app.apiUrl;
          const calls = events
            .filter((e) => e.ev === 'probe.bridge' || e.ev === 'probe.invoke')
            .map(({ ev: _ev, ...rest }) => rest);
          assert.deepEqual(calls, [
            {
              channel: BRIDGE_CHANNELS.connectTeamServer,
              from: { origin: 'https://evil.example.com' },
              error: `Refused: the calling page is on https://evil.example.com, not on the app's origin ${local}.`,
            },
            {
              channel: BRIDGE_CHANNELS.engine,
              from: { subframe: true },
              error: 'Refused: the call comes from a frame inside the page, not the page itself.',
            },
            { method: 'engine', result: { kind: 'local' } },
            {
              method: 'connectTeamServer',
              result: {
                ok: false,
                error:
                  'The team server must be reached over https:// (plain http:// only on this computer, e.g. http://127.0.0.1).',
              },
            },
            {
              method: 'connectTeamServer',
              result: {
                ok: false,
                error: `The sign-in link is not on the team server (${new URL(teamUrl).host}); it is on evil.example.com.`,
              },
            },
            { method: 'connectTeamServer', result: { ok: true } },
            { method: 'engine', result: { kind: 'team', url: teamUrl } },
            {
              channel: BRIDGE_CHANNELS.startForwardFromThisComputer,
              from: { origin: local },
              error: `Refused: the calling page is on ${local}, not on the app's origin ${teamUrl}.`,
            },
            { method: 'forwardsFromThisComputer', result: { ok: true, forwards: [] } },
            {
              method: 'startForwardFromThisComputer',
              result: {
                ok: false,
                error:
                  'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://10.0.0.5/ is sent by the team server.',
              },
            },
            { method: 'stopForwardFromThisComputer', result: { ok: true } },
            {
              channel: BRIDGE_CHANNELS.useThisComputer,
              from: { origin: local },
              error: `Refused: the calling page is on ${local}, not on the app's origin ${teamUrl}.`,
            },
            { method: 'useThisComputer', result: null },
            { method: 'engine', result: { kind: 'local' } },
            {
              method: 'forwardsFromThisComputer',
              result: {
                ok: false,
                error: 'Forwarding from this computer is for a team server; this computer forwards by itself.',
              },
            },
          ]);

          // The window loaded the team server's own sign-in link, whose code signs in there, then a fresh local one.
          const loads = events.filter((e) => e.ev === 'loadURL').map((e) => String(e.url));
          assert.equal(loads.length, 3, loads.join(' '));
          assert.equal(loads[1], link);
          const session = await fetch(`${teamUrl}/api/session`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ code: link.slice(`${teamUrl}/#/sign-in/`.length) }),
          });
          assert.equal(session.status, 200, "the link is the team server's, unspent");
          assert.ok(loads[2]!.startsWith(`${local}/#/sign-in/`) && loads[2] !== loads[0], loads[2]);
          const refused = events.filter((e) => e.ev === 'loadURL' && e.cancelled);
          assert.deepEqual(refused, [], 'no load was cancelled');

          // While the team server was shown: its routes stayed, the local page went to the browser (not the window).
          assert.deepEqual(
            events
              .filter((e) => e.ev === 'probe.navigate' && e.via === 'will-navigate')
              .map((e) => `${e.url} ${e.prevented}`),
            [`${teamUrl}/#/metrics false`, `${teamUrl}/api/openapi.json true`, `${local}/#/metrics true`],
          );
          assert.deepEqual(
            events.filter((e) => e.ev === 'probe.permissionCheck').map((e) => `${e.origin} ${e.granted}`),
            [`${teamUrl} true`, `${local} false`],
          );
          assert.deepEqual(
            events.filter((e) => e.ev === 'probe.request').map((e) => `${e.url} ${e.cancel ? 'cancelled' : 'loads'}`),
            [
              `${teamUrl}/assets/index.js loads`,
              `${local}/api/events loads`,
              'https://example.com/tracker.js cancelled',
              // Back on this computer: the team server is remote content again.
              `${teamUrl}/assets/index.js cancelled`,
              `${local}/assets/index.js loads`,
            ],
          );
          const refusals = (await readFile(join(dataDir, 'logs', 'engine.log'), 'utf8'))
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, any>)
            .filter((l) => l.msg === 'a desktop bridge call was refused');
          assert.deepEqual(
            refusals.map((l) => [l.level, l.source, l.channel]),
            [
              ['warn', 'desktop', BRIDGE_CHANNELS.connectTeamServer],
              ['warn', 'desktop', BRIDGE_CHANNELS.engine],
              ['warn', 'desktop', BRIDGE_CHANNELS.startForwardFromThisComputer],
              ['warn', 'desktop', BRIDGE_CHANNELS.useThisComputer],
            ],
          );
          assert.deepEqual(JSON.parse(await readFile(join(dataDir, 'desktop.json'), 'utf8')), {
            notifyOnFailedDelivery: true,
            teamServer: null,
            forwards: {},
          });
          app.child.kill('SIGTERM');
          assert.equal(await app.exited, 0, app.output());
        } finally {
          app.child.kill('SIGKILL');
        }
      } finally {
        await team.stop();
      }
    },
  );

  test(
    "send from this computer, with a team server shown: the page's request reaches a server on 127.0.0.1 byte for " +
      'byte and its answer comes back; another origin, or a target off this computer, is refused and nothing is sent',
    async () => {
      const team = await startTestEngine();
      const target = await TargetServer.start(() => ({
        status: 201,
        headers: { 'X-Handler': 'dev' },
        body: Buffer.from([0x7b, 0x00, 0xff, 0x7d]),
      }));
      const down = await closedPort();
      try {
        const teamUrl = new URL(team.engine.apiUrl).origin;
        const link = await team.engine.signInUrl();
        const host = `127.0.0.1:${target.port}`;
        const body = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d, 0x00, 0xff]);
        const request = {
          method: 'PATCH',
          url: `${target.url}/hook/sub?x=1&y=%20`,
          headers: [
            ['Host', host],
            ['Content-Type', 'application/json'],
            ['X-Dup', 'one'],
            ['Content-Length', String(body.length)],
            ['x-dup', 'two'],
            ['Stripe-Signature', 't=1,v1=ab'],
          ],
          body: body.toString('base64'),
          bodyEncoding: 'base64',
          timeoutMs: 5000,
        };
        const steps = [
          { bridge: 'connectTeamServer', args: [{ url: teamUrl, signInLink: link }] },
          { bridge: 'sendFromThisComputer', args: [request] },
          // The local engine's page is no longer the window's: refused before anything is sent.
          { invoke: BRIDGE_CHANNELS.sendFromThisComputer, args: [request], from: { origin: '{local}' } },
          { invoke: BRIDGE_CHANNELS.sendFromThisComputer, args: [request], from: { subframe: true } },
          { bridge: 'sendFromThisComputer', args: [{ ...request, url: 'http://10.0.0.5/hook', headers: [] }] },
          { bridge: 'sendFromThisComputer', args: [{ ...request, url: 'http://localhost.evil.com/', headers: [] }] },
          { bridge: 'sendFromThisComputer', args: [{ ...request, url: `${down.url}/hook`, headers: [] }] },
        ];
        const app = await launch(await newDir(), { ELECTRON_STAND_IN_STEPS: JSON.stringify(steps) });
        try {
          const outcomes = async (): Promise<Recorded[]> =>
            (await app.events()).filter((e) => e.ev === 'probe.bridge' || e.ev === 'probe.invoke');
          // The last step answered: every outcome is in the log (steps run one after another).
          await app.waitFor(
            (e) => e.ev === 'probe.bridge' && String(e.result?.result?.error?.message).includes(down.url),
            'the steps',
          );
          assert.equal((await outcomes()).length, steps.length);
          const calls = (await outcomes()).map(({ ev: _ev, ...rest }) => rest);
          assert.deepEqual(calls[0], { method: 'connectTeamServer', result: { ok: true } });
          assert.deepEqual(calls[1], {
            method: 'sendFromThisComputer',
            result: {
              ok: true,
              result: {
                status: 201,
                responseHeaders: calls[1]!.result.result.responseHeaders,
                responseBody: Buffer.from([0x7b, 0x00, 0xff, 0x7d]).toString('base64'),
                responseTruncated: false,
                responseTime: calls[1]!.result.result.responseTime,
                error: null,
              },
            },
          });
          const answered = (calls[1].result as any).result as {
            responseHeaders: [string, string][];
            responseTime: number;
          };
          assert.deepEqual(answered.responseHeaders[0], ['X-Handler', 'dev']);
          assert.ok(Number.isInteger(answered.responseTime) && answered.responseTime >= 0);
          assert.deepEqual(calls.slice(2, 4), [
            {
              channel: BRIDGE_CHANNELS.sendFromThisComputer,
              from: { origin: app.apiUrl },
              error: `Refused: the calling page is on ${app.apiUrl}, not on the app's origin ${teamUrl}.`,
            },
            {
              channel: BRIDGE_CHANNELS.sendFromThisComputer,
              from: { subframe: true },
              error: 'Refused: the call comes from a frame inside the page, not the page itself.',
            },
          ]);
          assert.deepEqual(calls.slice(4, 6), [
            {
              method: 'sendFromThisComputer',
              result: {
                ok: false,
                error:
                  'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://10.0.0.5/ is sent by the team server.',
              },
            },
            {
              method: 'sendFromThisComputer',
              result: {
                ok: false,
                error:
                  'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://localhost.evil.com/ is sent by the team server.',
              },
            },
          ]);
          // A local target that is not up: the sender's failure, as a result the page records.
          const failed = calls[6]!.result.result;
          assert.deepEqual(
            [calls[6]!.method, failed.status, failed.error],
            [
              'sendFromThisComputer',
              null,
              {
                code: 'TARGET_UNREACHABLE',
                message: `${down.url}/hook could not be reached: the connection was refused (is the server running on that port?).`,
              },
            ],
          );

          // The one request that reached the recording server: exactly what the page gave.
          assert.equal(target.received.length, 1);
          const [got] = target.received;
          assert.equal(got!.method, 'PATCH');
          assert.equal(got!.url, '/hook/sub?x=1&y=%20');
          assert.deepEqual(got!.rawHeaders, [...request.headers, ['Connection', 'close']]);
          assert.deepEqual(got!.body, body);
          app.child.kill('SIGTERM');
          assert.equal(await app.exited, 0, app.output());
        } finally {
          app.child.kill('SIGKILL');
        }
      } finally {
        await down.release();
        await target.close();
        await team.stop();
      }
    },
  );

  test('a launch shows the team server kept in desktop.json at its page; one that does not load gives way to this computer', async () => {
    const team = await startTestEngine();
    const down = await closedPort();
    try {
      const teamUrl = new URL(team.engine.apiUrl).origin;
      const dataDir = await newDir();
      await writeFile(join(dataDir, 'desktop.json'), JSON.stringify({ teamServer: { url: `${teamUrl}/` } }));
      const app = await launch(dataDir, { ELECTRON_STAND_IN_STEPS: JSON.stringify([{ bridge: 'engine' }]) });
      try {
        const shown = await app.waitFor((e) => e.ev === 'probe.bridge', 'the engine shown');
        assert.deepEqual(shown.result, { kind: 'team', url: teamUrl });
        assert.deepEqual(
          (await app.events()).filter((e) => e.ev === 'loadURL').map((e) => e.url),
          [`${teamUrl}/`],
        );
        app.child.kill('SIGTERM');
        assert.equal(await app.exited, 0, app.output());
      } finally {
        app.child.kill('SIGKILL');
      }

      // The kept server is down: this computer is shown; the choice stays for the next launch.
      await writeFile(join(dataDir, 'desktop.json'), JSON.stringify({ teamServer: { url: down.url } }));
      const fallback = await launch(dataDir, { ELECTRON_STAND_IN_STEPS: JSON.stringify([{ bridge: 'engine' }]) });
      try {
        const shown = await fallback.waitFor((e) => e.ev === 'probe.bridge', 'the engine shown');
        assert.deepEqual(shown.result, { kind: 'local' });
        const loads = (await fallback.events()).filter((e) => e.ev === 'loadURL');
        assert.deepEqual(loads[0], { ev: 'loadURL', url: `${down.url}/`, failed: true });
        assert.equal(loads.length, 2);
        assert.ok(String(loads[1]!.url).startsWith(`${fallback.apiUrl}/#/sign-in/`), loads[1]!.url);
        assert.deepEqual(JSON.parse(await readFile(join(dataDir, 'desktop.json'), 'utf8')), {
          teamServer: { url: down.url },
        });
        fallback.child.kill('SIGTERM');
        assert.equal(await fallback.exited, 0, fallback.output());
      } finally {
        fallback.child.kill('SIGKILL');
      }
    } finally {
      await down.release();
      await team.stop();
    }
  });

  test('a failed delivery on this computer, notified while a team server is shown: the click shows this computer at it', async () => {
    const team = await startTestEngine();
    try {
      const teamUrl = new URL(team.engine.apiUrl).origin;
      const link = await team.engine.signInUrl();
      const dataDir = await newDir();
      const app = await launch(dataDir, {
        ELECTRON_STAND_IN_CLICK: '1',
        ELECTRON_STAND_IN_STEPS: JSON.stringify([
          { bridge: 'connectTeamServer', args: [{ url: teamUrl, signInLink: link }] },
        ]),
      });
      try {
        const firstLoad = String((await app.waitFor((e) => e.ev === 'loadURL', 'the first page')).url);
        const connected = await app.waitFor((e) => e.ev === 'probe.bridge', 'the connection');
        assert.deepEqual(connected.result, { ok: true });
        assert.deepEqual(JSON.parse(await readFile(join(dataDir, 'desktop.json'), 'utf8')), {
          notifyOnFailedDelivery: true,
          teamServer: { url: teamUrl },
          forwards: {},
        });
        // The local engine, through the first page's sign-in code (the window never used it).
        const session = await fetch(`${app.apiUrl}/api/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code: firstLoad.slice(`${app.apiUrl}/#/sign-in/`.length) }),
        });
        const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
        const created = await fetch(`${app.apiUrl}/api/endpoints`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json', 'x-hookscope-request': '1' },
          body: JSON.stringify({ name: 'shop', validationType: 'stripe', webhookSecret: 'whsec_test_secret' }),
        });
        const endpointId = ((await created.json()) as any).data.id as string;
        const payload = JSON.stringify({ id: 'evt_2' });
        const delivery = await fetch(`${app.receiverUrl}/webhook/${endpointId}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' }),
          },
          body: payload,
        });
        assert.equal(delivery.status, 400);
        const logId = ((await delivery.json()) as any).error.details.logId as string;
        await app.waitFor((e) => e.ev === 'loadURL' && e.url === `${app.apiUrl}/#/logs/${logId}`, 'the click');
        assert.deepEqual(
          (await app.events()).filter((e) => e.ev === 'loadURL').map((e) => e.url),
          [firstLoad, link, `${app.apiUrl}/#/logs/${logId}`],
        );
        assert.deepEqual(JSON.parse(await readFile(join(dataDir, 'desktop.json'), 'utf8')), {
          notifyOnFailedDelivery: true,
          teamServer: null,
          forwards: {},
        });
        app.child.kill('SIGTERM');
        assert.equal(await app.exited, 0, app.output());
      } finally {
        app.child.kill('SIGKILL');
      }
    } finally {
      await team.stop();
    }
  });

  for (const fault of ['exception', 'rejection'] as const) {
    test(`an uncaught ${fault} in the main process is logged at fatal in logs/engine.log, flushed, shown, and exits 1`, async () => {
      const dataDir = await newDir();
      // Without a tray too: the main process's own warnings go to the same log, not to a console.
      const app = await launch(dataDir, { ELECTRON_STAND_IN_FAULT: fault, ELECTRON_STAND_IN_NO_TRAY: '1' });
      try {
        assert.equal(await app.exited, 1, app.output());
        const logFile = join(dataDir, 'logs', 'engine.log');
        const lines = (await readFile(logFile, 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, any>);
        const noTray = lines.find((l) => l.msg === 'no tray icon');
        assert.equal(noTray?.level, 'warn');
        assert.equal(noTray?.source, 'desktop');
        assert.equal(noTray?.err.message, 'stand-in: this desktop has no tray');
        const fatal = lines.at(-1)!;
        assert.equal(fatal.level, 'fatal');
        assert.equal(
          fatal.msg,
          fault === 'exception' ? 'uncaught exception; exiting' : 'unhandled promise rejection; exiting',
        );
        assert.match(fatal.err.message, /^stand-in fault: /);
        assert.match(fatal.err.stack, /electron-stand-in\/electron\.mjs/);
        const ends = (await app.events()).filter((e) => e.ev === 'dialog.showErrorBox' || e.ev === 'app.exit');
        assert.deepEqual(ends, [
          {
            ev: 'dialog.showErrorBox',
            title: 'Hookscope stopped after an unexpected error',
            content: `The details are in ${logFile}.`,
          },
          { ev: 'app.exit', code: 1 },
        ]);
        assert.doesNotMatch(app.output(), /stand-in fault/, 'nothing on the console');
      } finally {
        app.child.kill('SIGKILL');
      }
    });
  }

  test('a restart reopens the window where it was; notifications and the tunnel follow their settings', async () => {
    const dataDir = await newDir();
    await writeFile(
      join(dataDir, 'window-state.json'),
      JSON.stringify({ bounds: { x: 300, y: 200, width: 1000, height: 700 }, maximized: true }),
    );
    await writeFile(join(dataDir, 'desktop.json'), JSON.stringify({ notifyOnFailedDelivery: false }));
    await writeFile(join(dataDir, 'config.json'), JSON.stringify({ tunnel: { enabled: false } }));
    const app = await launch(dataDir);
    try {
      const window = (await app.events()).find((e) => e.ev === 'BrowserWindow')!;
      assert.deepEqual(
        { x: window.options.x, y: window.options.y, width: window.options.width, height: window.options.height },
        { x: 300, y: 200, width: 1000, height: 700 },
      );
      const tray = await app.waitFor((e) => e.ev === 'tray.setContextMenu', 'the tray menu');
      assert.equal(menuOf(tray)[0]!.label, 'Tunnel off');
      assert.equal(menuOf(tray)[5]!.checked, false);
      app.child.kill('SIGTERM');
      assert.equal(await app.exited, 0, app.output());
    } finally {
      app.child.kill('SIGKILL');
    }
  });

  test('a start that fails is logged in logs/engine.log, flushed, and shown before the app exits 1', async () => {
    const dataDir = await newDir();
    // Another engine holds the data directory (as `hookscope serve` would).
    const other = await startTestEngine({}, {}, dataDir);
    try {
      const app = await launch(dataDir, {}, false);
      try {
        assert.equal(await app.exited, 1, app.output());
        const events = await app.events();
        assert.equal(
          events.some((e) => e.ev === 'BrowserWindow'),
          false,
          'no window',
        );
        const box = events.find((e) => e.ev === 'dialog.showErrorBox')!;
        assert.equal(box.title, 'Hookscope could not start');
        assert.match(box.content, new RegExp(`^Another Hookscope engine \\(pid ${process.pid}\\) is already using `));
        const lines = (await readFile(join(dataDir, 'logs', 'engine.log'), 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, any>)
          .filter((l) => l.pid === app.child.pid);
        const failed = lines.find((l) => l.msg === 'the desktop app did not start');
        assert.equal(failed?.level, 'error');
        assert.equal(failed?.source, 'desktop');
        assert.equal(failed?.err.message, box.content);
      } finally {
        app.child.kill('SIGKILL');
      }
    } finally {
      await other.stop();
    }
  });

  test('a second launch hands over to the first and ends without starting an engine', async () => {
    const dataDir = await newDir();
    const app = await launch(dataDir, { ELECTRON_STAND_IN_SECOND: '1' }, false);
    assert.equal(await app.exited, 0, app.output());
    assert.deepEqual(
      (await app.events()).map((e) => e.ev),
      ['app.setName', 'app.quit'],
    );
    assert.equal(existsSync(join(dataDir, 'runtime.json')), false);
    assert.equal(existsSync(join(dataDir, 'logs')), false, 'no engine started');
  });
});
