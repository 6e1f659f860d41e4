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
// rejects, as Electron's does), and after the window's first page has loaded the
// probes of $ELECTRON_STAND_IN_PROBES run, each logged with its outcome:
//   { "links": [url...] }                each as will-navigate, will-redirect and window.open
//   { "permissions": [[name, url]...] }  the permission request handler, then the check handler
//   { "devices": true }                  the device permission handler, for a USB device
//   { "requests": [url...] }             the request filter (webRequest.onBeforeRequest)
// URLs may be relative to the first page. Answers are read after the handler and
// a turn of the event loop. Behaviour switches:
//   ELECTRON_STAND_IN_SECOND=1   requestSingleInstanceLock() answers false (another instance runs)
//   ELECTRON_STAND_IN_CLICK=1    every notification is clicked as soon as it is shown
//   ELECTRON_STAND_IN_NO_TRAY=1  new Tray() throws, as on a Linux desktop without a tray
//   ELECTRON_STAND_IN_TRAY_CLICK=<label>
//                                the tray item with that label is clicked once, when a menu first has it
//   ELECTRON_STAND_IN_FAULT=exception|rejection
//                                after the probes, an error nobody catches is thrown in the main process
import { EventEmitter } from 'node:events';
import { appendFileSync } from 'node:fs';

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

class WebContents extends EventEmitter {
  setWindowOpenHandler(handler) {
    log({ ev: 'webContents.setWindowOpenHandler', set: typeof handler === 'function' });
    this.windowOpenHandler = handler;
  }
}

/** The probes of $ELECTRON_STAND_IN_PROBES, against the window's handlers and the session's. */
async function runProbes(win, page) {
  const probes = JSON.parse(process.env.ELECTRON_STAND_IN_PROBES || '{}');
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
    log({ ev: 'BrowserWindow', options });
  }
  removeMenu() {}
  async loadURL(url) {
    if (await requestCancelled(url)) {
      log({ ev: 'loadURL', url, cancelled: true });
      throw new Error(`ERR_BLOCKED_BY_CLIENT (-20) loading '${url}'`);
    }
    log({ ev: 'loadURL', url });
    setImmediate(() => {
      this.emit('ready-to-show');
      if (this.probed) return;
      this.probed = true;
      void runProbes(this, url);
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
  Menu,
  nativeImage,
  Notification,
  screen,
  session,
  shell,
  Tray,
};
