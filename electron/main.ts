// The Electron main process: the desktop front door. It stays thin: the engine
// (server/) does the work, the renderer is the same UI `hookscope serve` serves,
// and every decision made here is a plain function in a file of its own, tested
// without Electron (tests/unit/electron/). This file only wires them to Electron.
import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
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
import { appRoot } from '../server/support/app-root.ts';
import { openEngineLog, type EngineLog, type Logger } from '../server/support/logger.ts';
import { appOrigin, deliveryPage, signInPage } from './app-origin.ts';
import { readDesktopSettings, writeDesktopSettings, type DesktopSettings } from './desktop-settings.ts';
import { desktopEngineConfig } from './engine-config.ts';
import { failureNotice } from './failure-notice.ts';
import { closeAction, gracefulQuit, revealWindow } from './graceful-quit.ts';
import { exitOnMainProcessFaults } from './main-process-faults.ts';
import { navigationGuard, windowOpenHandler } from './navigation.ts';
import { denyDevices, permissionCheckHandler, permissionRequestHandler } from './permissions.ts';
import { requestFilter } from './request-filter.ts';
import { trayMenuTemplate, trayTooltip } from './tray-menu.ts';
import { secureWebPreferences } from './web-preferences.ts';
import { placeWindow, readWindowState, writeWindowState, type WindowState } from './window-state.ts';

const icons = join(appRoot(import.meta.url), 'electron', 'icons');

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
  const origin = appOrigin({
    apiUrl: engine.apiUrl,
    devRendererUrl: process.env.HOOKSCOPE_RENDERER_URL,
    packaged: app.isPackaged,
  });
  let settings = await readDesktopSettings(engine.dataDir);
  let quitting = false;

  // Session-wide rules first, so nothing loads before them.
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler(permissionRequestHandler(origin));
  ses.setPermissionCheckHandler(permissionCheckHandler(origin));
  ses.setDevicePermissionHandler(denyDevices);
  ses.webRequest.onBeforeRequest(requestFilter(origin));

  const win = await openWindow(engine, origin, logger);
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
          signIn: () => {
            engine
              .signInUrl()
              .then((url) => win.loadURL(signInPage(url, origin)))
              .catch((err: unknown) => logger.warn({ err }, 'the sign-in page did not load'));
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
    n.on('click', () => {
      win
        .loadURL(deliveryPage(origin, notice.logId))
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

/** The one window: remembered place, hardened web preferences, signed in through a one-time link. */
async function openWindow(engine: Engine, origin: string, logger: Logger): Promise<BrowserWindow> {
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
    webPreferences: secureWebPreferences(),
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
  // The renderer trades the link's code for an HttpOnly session cookie: no token reaches page script.
  engine
    .signInUrl()
    .then((url) => win.loadURL(signInPage(url, origin)))
    .catch((err: unknown) => logger.error({ err }, 'the window did not load'));
  return win;
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
