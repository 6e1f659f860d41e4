// A stand-in for the `electron` module, for tests of electron/main.ts under
// plain Node (see register.mjs). It implements the part of Electron's API the
// main process uses, and writes what happens as JSON lines to
// $ELECTRON_STAND_IN_LOG: windows and their options, loaded URLs, handlers set,
// tray menus, notifications, quits.
//
// It does not only record that a handler was set: like Electron, it calls the
// handlers it is given, and where none was given it does what Electron does
// without one (grants every permission, lets every navigation, window and request
// through). Each page load goes through the request filter (a cancelled load
// rejects, as Electron's does; so does one whose server cannot be reached), and after the window's first page has loaded the
// probes of $ELECTRON_STAND_IN_PROBES run, each logged with its outcome:
//   { "links": [url...] }                each as will-navigate, will-redirect and window.open
//   { "permissions": [[name, url]...] }  the permission request handler, then the check handler
//   { "devices": true }                  the device permission handler, for a USB device
//   { "requests": [url...] }             the request filter (webRequest.onBeforeRequest)
// URLs may be relative to the first page. Answers are read after the handler and
// a turn of the event loop. Then the steps of $ELECTRON_STAND_IN_STEPS run in
// order, each logged with its outcome ("{local}" in a step stands for the first
// page's origin):
//   { "bridge": method, "args": [...] }  a call of the page's window.hookscopeDesktop (what the preload exposed),
//                                        answered through the ipcMain handler of its channel, from the main frame
//   { "invoke": channel, "args": [...], "from": { "origin": o } | { "subframe": true } }
//                                        an IPC call on that channel as a main frame of another origin, or an
//                                        iframe, would send it
//   { "probes": {...} }                  the probes above, relative to the page shown then
// The window runs its webPreferences.preload (CommonJS) as a sandboxed preload
// does, with `require('electron')` giving contextBridge and ipcRenderer only.
// Behaviour switches:
//   ELECTRON_STAND_IN_SECOND=1   requestSingleInstanceLock() answers false (another instance runs)
//   ELECTRON_STAND_IN_CLICK=1    every notification is clicked as soon as it is shown
//   ELECTRON_STAND_IN_NO_TRAY=1  new Tray() throws, as on a Linux desktop without a tray
//   ELECTRON_STAND_IN_TRAY_CLICK=<label>
//                                the tray item with that label is clicked once, when a menu first has it
//   ELECTRON_STAND_IN_FAULT=exception|rejection
//                                after the probes, an error nobody catches is thrown in the main process
import { EventEmitter } from 'node:events';
import { appendFileSync, readFileSync } from 'node:fs';

const log = (event) => {
  if (process.env.ELECTRON_STAND_IN_LOG)
    appendFileSync(process.env.ELECTRON_STAND_IN_LOG, `${JSON.stringify(event)}\n`);
};
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** An Electron event: `preventDefault()` is observed by whoever emitted it. */
const electronEvent = (fields = {}) => {
  const event = { ...fields, defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
  return event;
};

class App extends EventEmitter {
  isPackaged = false;
  setName(name) {
    log({ ev: 'app.setName', name });
  }
  requestSingleInstanceLock() {
    return process.env.ELECTRON_STAND_IN_SECOND !== '1';
  }
  whenReady() {
    return Promise.resolve();
  }
  quit() {
    const event = electronEvent();
    this.emit('before-quit', event);
    log({ ev: 'app.quit', held: event.defaultPrevented });
    if (!event.defaultPrevented) setImmediate(() => process.exit(0));
  }
  exit(code) {
    log({ ev: 'app.exit', code });
    process.exit(code);
  }
}
export const app = new App();

class Session {
  /** The handlers set, by setter name. */
  handlers = {};
  setPermissionRequestHandler = this.setter('setPermissionRequestHandler');
  setPermissionCheckHandler = this.setter('setPermissionCheckHandler');
  setDevicePermissionHandler = this.setter('setDevicePermissionHandler');
  webRequest = { onBeforeRequest: this.setter('webRequest.onBeforeRequest') };
  setter(name) {
    return (handler) => {
      this.handlers[name] = handler;
      log({ ev: `session.${name}`, set: typeof handler === 'function' });
    };
  }
}
export const session = { defaultSession: new Session() };
const { handlers } = session.defaultSession;

/** Whether the session's request filter cancels `url` (never, without a filter). */
async function requestCancelled(url) {
  const filter = handlers['webRequest.onBeforeRequest'];
  if (!filter) return false;
  let cancel = null;
  filter({ url, method: 'GET', resourceType: 'mainFrame' }, (response) => (cancel = response.cancel === true));
  await turn();
  return cancel;
}

/** ipcMain: the handlers set, by channel; `invoke` answers as Electron does (a throw becomes a rejection). */
const ipcHandlers = {};
export const ipcMain = {
  handle(channel, handler) {
    ipcHandlers[channel] = handler;
    log({ ev: 'ipcMain.handle', channel });
  },
};
async function invoke(event, channel, args) {
  const handler = ipcHandlers[channel];
  if (!handler) throw new Error(`No handler registered for '${channel}'`);
  return handler(event, ...args);
}

class WebContents extends EventEmitter {
  /** The page's top frame, as WebFrameMain: its origin follows the page loaded. */
  mainFrame = { frameTreeNodeId: 1, parent: null, origin: 'null', url: '' };
  setWindowOpenHandler(handler) {
    log({ ev: 'webContents.setWindowOpenHandler', set: typeof handler === 'function' });
    this.windowOpenHandler = handler;
  }
}

/** Probes (see the top of this file), against the window's handlers and the session's. */
async function runProbes(win, page, probes) {
  const abs = (url) => new URL(url, page).href;
  for (const url of (probes.links ?? []).map(abs)) {
    for (const via of ['will-navigate', 'will-redirect']) {
      const event = electronEvent({ url, isMainFrame: true });
      win.webContents.emit(via, event, url, false, true);
      await turn();
      log({ ev: 'probe.navigate', via, url, prevented: event.defaultPrevented });
    }
    // Without a handler, Electron opens a new window.
    const answer = win.webContents.windowOpenHandler?.({ url, frameName: '', features: '', disposition: 'new-window' });
    await turn();
    log({ ev: 'probe.windowOpen', url, action: answer ? answer.action : 'allow' });
  }
  for (const [permission, relative] of probes.permissions ?? []) {
    const url = abs(relative);
    const request = handlers.setPermissionRequestHandler;
    let granted = null;
    if (request) request(win.webContents, permission, (g) => (granted = g), { requestingUrl: url, isMainFrame: true });
    else granted = true; // Electron grants every permission request unless a handler says otherwise.
    await turn();
    log({ ev: 'probe.permissionRequest', permission, url, granted });
    const check = handlers.setPermissionCheckHandler;
    const origin = new URL(url).origin;
    const checked = check
      ? check(win.webContents, permission, origin, { requestingUrl: url, isMainFrame: true })
      : true;
    log({ ev: 'probe.permissionCheck', permission, origin, granted: checked });
  }
  if (probes.devices) {
    const device = handlers.setDevicePermissionHandler;
    // Without a handler Electron defers to its device chooser: neither yes nor no here.
    const granted = device ? device({ deviceType: 'usb', origin: new URL(page).origin, device: {} }) : null;
    log({ ev: 'probe.devicePermission', deviceType: 'usb', granted });
  }
  for (const url of (probes.requests ?? []).map(abs)) {
    log({ ev: 'probe.request', url, cancel: await requestCancelled(url) });
  }
}

/** The steps of $ELECTRON_STAND_IN_STEPS, in order. */
async function runSteps(win, firstPage) {
  const local = new URL(firstPage).origin;
  const steps = JSON.parse((process.env.ELECTRON_STAND_IN_STEPS || '[]').replaceAll('{local}', local));
  for (const step of steps) {
    if (step.probes) {
      await runProbes(win, win.webContents.mainFrame.url, step.probes);
      continue;
    }
    const { args = [], from } = step;
    const outcome = step.bridge
      ? { ev: 'probe.bridge', method: step.bridge }
      : { ev: 'probe.invoke', channel: step.invoke, from };
    try {
      if (step.bridge) {
        outcome.result = (await win.exposed.hookscopeDesktop[step.bridge](...args)) ?? null;
      } else {
        const main = win.webContents.mainFrame;
        const senderFrame = from.subframe
          ? { frameTreeNodeId: 2, parent: main, origin: main.origin, url: main.url }
          : { ...main, origin: from.origin, url: `${from.origin}/` };
        outcome.result = (await invoke({ sender: win.webContents, senderFrame }, step.invoke, args)) ?? null;
      }
    } catch (err) {
      outcome.error = err.message;
    }
    log(outcome);
  }
}

/** The after-first-load script: the probes, the steps, then a fault if asked for. */
async function afterFirstLoad(win, page) {
  await runProbes(win, page, JSON.parse(process.env.ELECTRON_STAND_IN_PROBES || '{}'));
  await runSteps(win, page);
  const fault = process.env.ELECTRON_STAND_IN_FAULT;
  if (fault === 'exception') {
    setImmediate(() => {
      throw new Error('stand-in fault: an exception nobody caught');
    });
  } else if (fault === 'rejection') {
    void Promise.reject(new Error('stand-in fault: a rejection nobody handled'));
  }
}

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.webContents = new WebContents();
    this.visible = false;
    this.maximized = false;
    this.probed = false;
    /** What the preload exposed to the page, by name. */
    this.exposed = {};
    log({ ev: 'BrowserWindow', options });
    if (options.webPreferences?.preload) this.runPreload(options.webPreferences.preload);
  }
  /** A sandboxed preload: CommonJS, and `require` gives `electron`'s contextBridge and ipcRenderer, nothing else. */
  runPreload(path) {
    const win = this;
    const electron = {
      contextBridge: {
        exposeInMainWorld(name, api) {
          win.exposed[name] = api;
          log({ ev: 'contextBridge.exposeInMainWorld', name, keys: Object.keys(api) });
        },
      },
      ipcRenderer: {
        // Called from the page: the sender is its main frame.
        invoke(channel, ...args) {
          return invoke({ sender: win.webContents, senderFrame: win.webContents.mainFrame }, channel, args);
        },
      },
    };
    const require = (id) => {
      if (id !== 'electron') throw new Error(`a sandboxed preload cannot require '${id}'`);
      return electron;
    };
    const module = { exports: {} };
    new Function('require', 'module', 'exports', readFileSync(path, 'utf8'))(require, module, module.exports);
  }
  removeMenu() {}
  async loadURL(url) {
    if (await requestCancelled(url)) {
      log({ ev: 'loadURL', url, cancelled: true });
      throw new Error(`ERR_BLOCKED_BY_CLIENT (-20) loading '${url}'`);
    }
    // A page whose server cannot be reached does not load, and loadURL rejects, as Electron's does.
    try {
      const response = await fetch(url, { redirect: 'manual' });
      await response.body?.cancel();
    } catch {
      log({ ev: 'loadURL', url, failed: true });
      throw new Error(`ERR_CONNECTION_REFUSED (-102) loading '${url}'`);
    }
    log({ ev: 'loadURL', url });
    this.webContents.mainFrame = { ...this.webContents.mainFrame, origin: new URL(url).origin, url };
    setImmediate(() => {
      this.emit('ready-to-show');
      if (this.probed) return;
      this.probed = true;
      void afterFirstLoad(this, url);
    });
  }
  show() {
    this.visible = true;
    log({ ev: 'window.show' });
  }
  hide() {
    this.visible = false;
  }
  maximize() {
    this.maximized = true;
  }
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
  isVisible() {
    return this.visible;
  }
  // The stand-in's window is never the focused one, so notifications are shown.
  isFocused() {
    return false;
  }
  isMaximized() {
    return this.maximized;
  }
  isDestroyed() {
    return false;
  }
  getNormalBounds() {
    const o = this.options;
    return { x: o.x ?? 100, y: o.y ?? 80, width: o.width, height: o.height };
  }
}

export const clipboard = { writeText: async (text) => log({ ev: 'clipboard.writeText', text }) };
export const dialog = { showErrorBox: (title, content) => log({ ev: 'dialog.showErrorBox', title, content }) };
export const shell = { openExternal: async (url) => log({ ev: 'shell.openExternal', url }) };
export const nativeImage = { createFromPath: (path) => ({ path }) };
export const Menu = {
  buildFromTemplate: (template) => ({ template }),
};

const display = { id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } };
export const screen = { getPrimaryDisplay: () => display, getAllDisplays: () => [display] };

export class Tray extends EventEmitter {
  constructor(image) {
    super();
    if (process.env.ELECTRON_STAND_IN_NO_TRAY === '1') throw new Error('stand-in: this desktop has no tray');
    log({ ev: 'Tray', image: image.path });
  }
  setToolTip(tooltip) {
    log({ ev: 'tray.setToolTip', tooltip });
  }
  setContextMenu(menu) {
    const items = menu.template.map(({ click, ...rest }) => ({ ...rest, clickable: typeof click === 'function' }));
    log({ ev: 'tray.setContextMenu', items });
    const wanted = process.env.ELECTRON_STAND_IN_TRAY_CLICK;
    const item = wanted && !this.clicked ? menu.template.find((i) => i.label === wanted) : undefined;
    if (item?.click) {
      this.clicked = true;
      setImmediate(() => {
        log({ ev: 'tray.click', label: wanted });
        item.click();
      });
    }
  }
}

export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(options) {
    super();
    this.options = options;
  }
  show() {
    log({ ev: 'notification.show', title: this.options.title, body: this.options.body });
    if (process.env.ELECTRON_STAND_IN_CLICK === '1') setImmediate(() => this.emit('click'));
  }
}

export default {
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
};
