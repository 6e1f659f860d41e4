// The Electron main process: the desktop front door. It stays thin: the engine
// (server/) does the work, the renderer is the same UI `hookscope serve` serves,
// and every decision made here is a plain function in a file of its own, tested
// without Electron (tests/unit/electron/). This file only wires them to Electron.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
import { appOrigin, deliveryPage, signInPage } from './app-origin.ts';
import { readDesktopSettings, writeDesktopSettings, type DesktopSettings } from './desktop-settings.ts';
import { desktopEngineConfig } from './engine-config.ts';
import { failureNotice } from './failure-notice.ts';
import { closeAction, gracefulQuit, revealWindow } from './graceful-quit.ts';
import { navigationGuard, windowOpenHandler } from './navigation.ts';
import { denyDevices, permissionCheckHandler, permissionRequestHandler } from './permissions.ts';
import { requestFilter } from './request-filter.ts';
import { trayMenuTemplate, trayTooltip } from './tray-menu.ts';
import { secureWebPreferences } from './web-preferences.ts';
import { placeWindow, readWindowState, writeWindowState, type WindowState } from './window-state.ts';

const here = dirname(fileURLToPath(import.meta.url));
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

async function run(): Promise<void> {
  const config = await desktopEngineConfig(process.env);
  const engine = await startEngine(config);
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

  const win = await openWindow(engine, origin);
  let tray: Tray | null = null;
  try {
    tray = new Tray(nativeImage.createFromPath(join(icons, 'tray.png')));
  } catch (err) {
    // Some Linux desktops have no tray; the window then quits the app when closed.
    console.error(`hookscope: no tray icon (${err instanceof Error ? err.message : String(err)})`);
  }
  const show = (): void => revealWindow(win);

  win.on('close', (event) => {
    if (closeAction({ quitting, hasTray: tray !== null, platform: process.platform }) === 'hide') {
      event.preventDefault();
      win.hide();
    }
    void saveWindowState(engine.dataDir, win);
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
            clipboard.writeText(url).catch((err: unknown) => console.error(`hookscope: copy failed: ${String(err)}`));
          },
          open: show,
          setNotify: (on) => {
            settings = { ...settings, notifyOnFailedDelivery: on };
            void saveSettings(engine.dataDir, settings);
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
      void win.loadURL(deliveryPage(origin, notice.logId));
      show();
    });
    n.on('close', () => shown.delete(n));
    n.show();
  });

  // Quit: the window state, then the engine (listeners, a store checkpoint, the tunnel closed).
  app.on(
    'before-quit',
    gracefulQuit({
      stop: async () => {
        quitting = true;
        stopNotices();
        stopTray();
        await saveWindowState(engine.dataDir, win);
        await engine.stop();
      },
      quit: () => app.quit(),
      onError: (err) =>
        console.error(`hookscope: stopping failed: ${err instanceof Error ? err.message : String(err)}`),
    }),
  );
  // `npm start` forwards Ctrl+C; without this the process would end without a checkpoint.
  process.on('SIGINT', () => app.quit());
  process.on('SIGTERM', () => app.quit());
}

/** The one window: remembered place, hardened web preferences, signed in through a one-time link. */
async function openWindow(engine: Engine, origin: string): Promise<BrowserWindow> {
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
    webPreferences: secureWebPreferences(join(here, 'preload.cjs')),
  });
  win.removeMenu();
  const guard = { origin, openExternal: (url: string) => void shell.openExternal(url) };
  win.webContents.on('will-navigate', navigationGuard(guard));
  win.webContents.on('will-redirect', navigationGuard(guard));
  win.webContents.setWindowOpenHandler(windowOpenHandler(guard));
  win.once('ready-to-show', () => {
    if (place.maximized) win.maximize();
    win.show();
  });
  // The renderer trades the link's code for an HttpOnly session cookie: no token reaches page script.
  win
    .loadURL(signInPage(engine.signInUrl(), origin))
    .catch((err: unknown) => console.error(`hookscope: the window did not load: ${String(err)}`));
  return win;
}

async function saveWindowState(dataDir: string, win: BrowserWindow): Promise<void> {
  if (win.isDestroyed()) return;
  const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
  await writeWindowState(dataDir, state).catch((err: unknown) => console.error(`hookscope: ${String(err)}`));
}

async function saveSettings(dataDir: string, settings: DesktopSettings): Promise<void> {
  await writeDesktopSettings(dataDir, settings).catch((err: unknown) => console.error(`hookscope: ${String(err)}`));
}
