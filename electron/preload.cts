// The window's preload: it puts one object on the page, `window.hookscopeDesktop`,
// through contextBridge (the page never sees Electron, ipcRenderer or Node). Each
// method is one `ipcRenderer.invoke` on its own channel; the main process checks
// the calling frame before it acts (electron/ipc-sender.ts). CommonJS, because a
// sandboxed preload cannot be an ES module, and self-contained, because it can
// load no file of ours: the channel names are those of electron/desktop-bridge.ts.
// `import ... from` is ESM syntax, which verbatimModuleSyntax refuses in a CommonJS file.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import electron = require('electron');
// Types only: erased from the emitted preload, which stays self-contained.
import type { StartForwardInput } from './forward-input.ts';
import type { LocalRequest } from './local-send-types.ts';

electron.contextBridge.exposeInMainWorld('hookscopeDesktop', {
  engine: () => electron.ipcRenderer.invoke('hookscope:engine'),
  connectTeamServer: (input: { url: string; signInLink: string }) =>
    electron.ipcRenderer.invoke('hookscope:connect-team-server', { url: input.url, signInLink: input.signInLink }),
  useThisComputer: () => electron.ipcRenderer.invoke('hookscope:use-this-computer'),
  // The request the engine built (POST /api/replay/:id/outgoing); the main process sends it to this computer only.
  sendFromThisComputer: (request: LocalRequest) =>
    electron.ipcRenderer.invoke('hookscope:send-from-this-computer', {
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body,
      bodyEncoding: request.bodyEncoding,
      timeoutMs: request.timeoutMs,
    }),
  // An endpoint's deliveries of the team server shown, forwarded by the main process to this computer; the
  // sign-in code (the page's own POST /api/session/codes) becomes the main process's own token.
  startForwardFromThisComputer: (input: StartForwardInput) =>
    electron.ipcRenderer.invoke('hookscope:start-forward-from-this-computer', {
      endpointId: input.endpointId,
      targetUrl: input.targetUrl,
      signInCode: input.signInCode,
    }),
  stopForwardFromThisComputer: (input: { endpointId: string }) =>
    electron.ipcRenderer.invoke('hookscope:stop-forward-from-this-computer', { endpointId: input.endpointId }),
  forwardsFromThisComputer: () => electron.ipcRenderer.invoke('hookscope:forwards-from-this-computer'),
});
