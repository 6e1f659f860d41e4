// A stand-in for the `electron` module, for tests of electron/main.ts under
// plain Node (see register.mjs). It implements the part of Electron's API the
// main process uses, and writes what happens as JSON lines to
// $ELECTRON_STAND_IN_LOG: windows and their options, loaded URLs, handlers set,
// tray menus, notifications, quits. Behaviour switches:
//   ELECTRON_STAND_IN_SECOND=1   requestSingleInstanceLock() answers false (another instance runs)
//   ELECTRON_STAND_IN_CLICK=1    every notification is clicked as soon as it is shown
import { EventEmitter } from 'node:events';
import { appendFileSync } from 'node:fs';

const log = (event) => {
  if (process.env.ELECTRON_STAND_IN_LOG)
    appendFileSync(process.env.ELECTRON_STAND_IN_LOG, `${JSON.stringify(event)}\n`);
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
    const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
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

class WebContents extends EventEmitter {
  setWindowOpenHandler(handler) {
    log({ ev: 'webContents.setWindowOpenHandler', set: typeof handler === 'function' });
    this.windowOpenHandler = handler;
  }
}

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.webContents = new WebContents();
    this.visible = false;
    this.maximized = false;
    log({ ev: 'BrowserWindow', options });
  }
  removeMenu() {}
  loadURL(url) {
    log({ ev: 'loadURL', url });
    setImmediate(() => this.emit('ready-to-show'));
    return Promise.resolve();
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

const handlersSet = (name) => (handler) => log({ ev: `session.${name}`, set: typeof handler === 'function' });
export const session = {
  defaultSession: {
    setPermissionRequestHandler: handlersSet('setPermissionRequestHandler'),
    setPermissionCheckHandler: handlersSet('setPermissionCheckHandler'),
    setDevicePermissionHandler: handlersSet('setDevicePermissionHandler'),
    webRequest: { onBeforeRequest: handlersSet('webRequest.onBeforeRequest') },
  },
};

export class Tray extends EventEmitter {
  constructor(image) {
    super();
    log({ ev: 'Tray', image: image.path });
  }
  setToolTip(tooltip) {
    log({ ev: 'tray.setToolTip', tooltip });
  }
  setContextMenu(menu) {
    const items = menu.template.map(({ click, ...rest }) => ({ ...rest, clickable: typeof click === 'function' }));
    log({ ev: 'tray.setContextMenu', items });
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
