// The preload script of the window. The window is sandboxed, so this runs as a
// CommonJS script with only a few modules: it is `.cts` (tsc emits
// dist/electron/preload.cjs) and requires nothing but electron. It exposes
// DesktopBridge (desktop-bridge.ts) and nothing else; see there for why.
import electron = require('electron');
import type { BRIDGE_KEY, DesktopBridge } from './desktop-bridge.ts';

// Typed as BRIDGE_KEY; written out, since a sandboxed preload cannot require a file of its own.
const key: typeof BRIDGE_KEY = 'hookscopeDesktop';
const bridge: DesktopBridge = { desktop: true, platform: process.platform };
electron.contextBridge.exposeInMainWorld(key, bridge);
