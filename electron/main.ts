// The Electron main process: the desktop front door. It stays thin: the engine
// (server/) does the work, the renderer is the same UI `hookscope serve` serves,
// and every decision made here is a plain function in a file of its own, tested
// without Electron (tests/unit/electron/). This file only wires them to Electron.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  screen,
  session,
  shell,
  Tray,
} from 'electron';
import { accountIdFor, LOCAL_ACCOUNT } from '../server/auth/account-id.ts';
import { startEngine, type Engine } from '../server/engine/engine.ts';
import { send } from '../server/replay/http-sender.ts';
import { appRoot } from '../server/support/app-root.ts';
import { openEngineLog, type EngineLog, type Logger } from '../server/support/logger.ts';
import { appOrigin, deliveryPage, signInPage } from './app-origin.ts';
import { BRIDGE_CHANNELS, desktopBridge, type DesktopBridge } from './desktop-bridge.ts';
import { readDesktopSettings, writeDesktopSettings, type DesktopSettings } from './desktop-settings.ts';
import { EngineSwitch } from './engine-choice.ts';
import { desktopEngineConfig } from './engine-config.ts';
import { failureNotice } from './failure-notice.ts';
import { forwardManager } from './forward-wiring.ts';
import { closeAction, gracefulQuit, revealWindow } from './graceful-quit.ts';
import { ipcSenderRefusal } from './ipc-sender.ts';
import { exitOnMainProcessFaults } from './main-process-faults.ts';
import { navigationGuard, windowOpenHandler } from './navigation.ts';
import { denyDevices, permissionCheckHandler, permissionRequestHandler } from './permissions.ts';
import { requestFilter } from './request-filter.ts';
import { checkTeamServer } from './team-server-check.ts';
import { trayMenuTemplate, trayTooltip } from './tray-menu.ts';
import { secureWebPreferences } from './web-preferences.ts';
import { placeWindow, readWindowState, writeWindowState, type WindowState } from './window-state.ts';

const icons = join(appRoot(import.meta.url), 'electron', 'icons');
// Compiled next to this file from electron/preload.cts.
const preload = fileURLToPath(new URL('./preload.cjs', import.meta.url));
const TEAM_SERVER_CHECK_MS = 10_000;

app.setName('Hookscope');
// A second launch hands over to the first (its `second-instance` shows the window) and ends here.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  await app.whenReady();
  await run().catch((err: unknown) => {
    dialog.showErrorBox('Hookscope could not start', err instanceof Error ? err.message : String(err));
    app.exit(1);
  });
}

/**
 * The engine's log is opened first and is the main process's log too: its own
 * warnings, and any error no code caught, go there (the app has no console
 * anyone reads). A start that fails after it is logged, and the log flushed,
 * before the error box.
 */
async function run(): Promise<void> {
  const config = await desktopEngineConfig(process.env);
  const log = await openEngineLog({ dataDir: config.dataDir });
  exitOnMainProcessFaults(process, log, {
    showError: (title, content) => dialog.showErrorBox(title, content),
    exit: (code) => app.exit(code),
  });
  const logger = log.logger.child({ source: 'desktop' });
  let engine: Engine | null = null;
  try {
    engine = await startEngine(config, { logger: log.logger });
    await wire(engine, log, logger);
  } catch (err) {
    logger.error({ err }, 'the desktop app did not start');
    await engine?.stop().catch((e: unknown) => logger.error({ err: e }, 'stopping failed'));
    await log.close();
    throw err;
  }
}

/** Everything around the running engine: session rules, the window, the tray, notifications, quit. */
async function wire(engine: Engine, log: EngineLog, logger: Logger): Promise<void> {
  const localOrigin = appOrigin({
    apiUrl: engine.apiUrl,
    devRendererUrl: process.env.HOOKSCOPE_RENDERER_URL,
    packaged: app.isPackaged,
  });
  let settings = await readDesktopSettings(engine.dataDir);
  let quitting = false;
  // The engine the window shows; every rule below asks it for the app's origin at each call.
  const engineSwitch = new EngineSwitch(
    settings.teamServer ? { kind: 'team', url: settings.teamServer.url } : { kind: 'local' },
    localOrigin,
  );
  const origin = (): string => engineSwitch.origin();

  // Session-wide rules first, so nothing loads before them.
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler(permissionRequestHandler(origin));
  ses.setPermissionCheckHandler(permissionCheckHandler(origin));
  ses.setDevicePermissionHandler(denyDevices);
  ses.webRequest.onBeforeRequest(requestFilter(() => engineSwitch.loadableOrigins()));

  const win = await openWindow(engine, origin, logger);
  const forwards = forwardManager({
    dataDir: engine.dataDir,
    choices: {
      load: (teamUrl) => settings.forwards[teamUrl] ?? [],
      save: async (teamUrl, choices) => {
        settings = { ...settings, forwards: { ...settings.forwards, [teamUrl]: choices } };
        await saveSettings(engine.dataDir, settings, logger);
      },
    },
    send,
    logger,
  });
  const localSignInPage = async (): Promise<string> => signInPage(await engine.signInUrl(), localOrigin);
  const bridge = desktopBridge({
    engineSwitch,
    checkTeamServer: (url) => checkTeamServer(url, fetch, TEAM_SERVER_CHECK_MS),
    load: (url) => win.loadURL(url),
    localSignInPage,
    save: async (choice) => {
      settings = { ...settings, teamServer: choice.kind === 'team' ? { url: choice.url } : null };
      await saveSettings(engine.dataDir, settings, logger);
    },
    send,
    forwards,
  });
  handleBridge(bridge, win, engineSwitch, logger);
  // The forwards of the team server shown resume once its page has loaded (and stay off if it did not).
  void showFirstPage(engineSwitch, win, localSignInPage, logger).then(() => forwards.show(engineSwitch.choice));
  let tray: Tray | null = null;
  try {
    tray = new Tray(nativeImage.createFromPath(join(icons, 'tray.png')));
  } catch (err) {
    // Some Linux desktops have no tray; the window then quits the app when closed.
    logger.warn({ err }, 'no tray icon');
  }
  const show = (): void => revealWindow(win);

  win.on('close', (event) => {
    if (closeAction({ quitting, hasTray: tray !== null, platform: process.platform }) === 'hide') {
      event.preventDefault();
      win.hide();
    }
    void saveWindowState(engine.dataDir, win, logger);
  });
  app.on('second-instance', show);
  app.on('activate', show);
  app.on('window-all-closed', () => app.quit());

  // The tray follows the tunnel; its menu is rebuilt from the state on each change.
  const refreshTray = (): void => {
    if (!tray) return;
    const tunnel = engine.tunnel.status();
    tray.setToolTip(trayTooltip(tunnel));
    tray.setContextMenu(
      Menu.buildFromTemplate(
        trayMenuTemplate(tunnel, settings, {
          copyPublicUrl: (url) => {
            clipboard.writeText(url).catch((err: unknown) => logger.warn({ err }, 'copying the public URL failed'));
          },
          open: show,
          // The local engine's sign-in: from a team server, this is the way back to "This computer" too.
          signIn: () => {
            bridge.showThisComputer().catch((err: unknown) => logger.warn({ err }, 'the sign-in page did not load'));
            show();
          },
          setNotify: (on) => {
            settings = { ...settings, notifyOnFailedDelivery: on };
            void saveSettings(engine.dataDir, settings, logger);
            refreshTray();
          },
          quit: () => app.quit(),
        }),
      ),
    );
  };
  refreshTray();
  const stopTray = engine.tunnel.subscribe(refreshTray);
  tray?.on('click', show);

  // A failed delivery while the user looks elsewhere: a notification that opens it.
  const shown = new Set<Notification>(); // held until closed, or a click may never arrive
  let lastShownAt: number | null = null;
  const stopNotices = engine.events.subscribe(accountIdFor(LOCAL_ACCOUNT), (event) => {
    if (!Notification.isSupported()) return;
    const notice = failureNotice(event, {
      enabled: settings.notifyOnFailedDelivery,
      windowFocused: win.isVisible() && win.isFocused(),
      lastShownAt,
      now: Date.now(),
    });
    if (!notice) return;
    lastShownAt = Date.now();
    const n = new Notification({ title: notice.title, body: notice.body });
    shown.add(n);
    // Notices come from the local engine: a click shows "This computer" again, at that delivery.
    n.on('click', () => {
      bridge
        .showThisComputer(deliveryPage(localOrigin, notice.logId))
        .catch((err: unknown) => logger.warn({ err }, 'the delivery did not open'));
      show();
    });
    n.on('close', () => shown.delete(n));
    n.show();
  });

  // Quit: the window state, then the engine (listeners, a store checkpoint, the tunnel closed), then its log.
  app.on(
    'before-quit',
    gracefulQuit({
      stop: async () => {
        quitting = true;
        stopNotices();
        stopTray();
        // Each forward's place is written before the app ends, so the next launch catches up from there.
        await forwards.stopAll();
        await saveWindowState(engine.dataDir, win, logger);
        await engine.stop();
      },
      // Closed after a failed stop is logged, so that line is written too.
      quit: () => void log.close().finally(() => app.quit()),
      onError: (err) => logger.error({ err }, 'stopping failed'),
    }),
  );
  // `npm start` forwards Ctrl+C; without this the process would end without a checkpoint.
  process.on('SIGINT', () => app.quit());
  process.on('SIGTERM', () => app.quit());
}

/** The one window: remembered place, hardened web preferences; its first page is `showFirstPage`'s. */
async function openWindow(engine: Engine, origin: () => string, logger: Logger): Promise<BrowserWindow> {
  const primary = screen.getPrimaryDisplay();
  const displays = [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)];
  const place = placeWindow(
    await readWindowState(engine.dataDir),
    displays.map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    width: place.width,
    height: place.height,
    ...(place.x !== undefined && place.y !== undefined ? { x: place.x, y: place.y } : {}),
    minWidth: 720,
    minHeight: 480,
    title: 'Hookscope',
    icon: join(icons, 'icon.png'),
    show: false,
    webPreferences: secureWebPreferences(preload),
  });
  win.removeMenu();
  const guard = {
    origin,
    // Rejects when no browser takes the link (e.g. no xdg-open handler): said in the log, the app carries on.
    openExternal: (url: string) =>
      void shell.openExternal(url).catch((err: unknown) => logger.warn({ err }, 'the link did not open in a browser')),
  };
  win.webContents.on('will-navigate', navigationGuard(guard));
  win.webContents.on('will-redirect', navigationGuard(guard));
  win.webContents.setWindowOpenHandler(windowOpenHandler(guard));
  win.once('ready-to-show', () => {
    if (place.maximized) win.maximize();
    win.show();
  });
  return win;
}

/**
 * The local engine's one-time sign-in link (the renderer trades its code for an HttpOnly session cookie: no
 * token reaches page script), or the chosen team server's UI, whose cookie may still be valid (if not, its
 * sign-in page says so). A team server that does not load gives way to "This computer" for this run.
 */
async function showFirstPage(
  engineSwitch: EngineSwitch,
  win: BrowserWindow,
  localSignInPage: () => Promise<string>,
  logger: Logger,
): Promise<void> {
  const { choice } = engineSwitch;
  if (choice.kind === 'team') {
    try {
      await win.loadURL(`${choice.url}/`);
      return;
    } catch (err) {
      logger.warn({ err, teamServer: choice.url }, 'the team server did not load; showing this computer');
      engineSwitch.set({ kind: 'local' });
    }
  }
  await localSignInPage()
    .then((page) => win.loadURL(page))
    .catch((err: unknown) => logger.error({ err }, 'the window did not load'));
}

/**
 * `window.hookscopeDesktop`'s calls (electron/preload.cts), each answered only when it comes from the window's
 * own page at the app's current origin; anything else is logged and rejected.
 */
function handleBridge(bridge: DesktopBridge, win: BrowserWindow, engineSwitch: EngineSwitch, logger: Logger): void {
  const calls: Record<keyof typeof BRIDGE_CHANNELS, (input: unknown) => unknown> = {
    engine: () => bridge.engine(),
    connectTeamServer: (input) => bridge.connectTeamServer(input),
    useThisComputer: () => bridge.useThisComputer(),
    sendFromThisComputer: (input) => bridge.sendFromThisComputer(input),
    startForwardFromThisComputer: (input) => bridge.startForwardFromThisComputer(input),
    stopForwardFromThisComputer: (input) => bridge.stopForwardFromThisComputer(input),
    forwardsFromThisComputer: () => bridge.forwardsFromThisComputer(),
  };
  for (const [name, call] of Object.entries(calls) as [keyof typeof BRIDGE_CHANNELS, (input: unknown) => unknown][]) {
    ipcMain.handle(BRIDGE_CHANNELS[name], (event, input: unknown) => {
      const refusal = ipcSenderRefusal(
        event,
        { webContents: win.webContents, mainFrame: win.webContents.mainFrame },
        engineSwitch.origin(),
      );
      if (refusal) {
        logger.warn({ channel: BRIDGE_CHANNELS[name], refusal }, 'a desktop bridge call was refused');
        throw new Error(`Refused: ${refusal}.`);
      }
      return call(input);
    });
  }
}

async function saveWindowState(dataDir: string, win: BrowserWindow, logger: Logger): Promise<void> {
  if (win.isDestroyed()) return;
  const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
  await writeWindowState(dataDir, state).catch((err: unknown) =>
    logger.warn({ err }, 'the window state was not saved'),
  );
}

async function saveSettings(dataDir: string, settings: DesktopSettings, logger: Logger): Promise<void> {
  await writeDesktopSettings(dataDir, settings).catch((err: unknown) =>
    logger.warn({ err }, 'the desktop settings were not saved'),
  );
}
