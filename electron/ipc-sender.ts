/** The parts of Electron's `WebFrameMain` the sender check reads. */
export interface SenderFrame {
  readonly frameTreeNodeId: number;
  readonly origin: string;
  readonly detached?: boolean;
}

/** The parts of an `IpcMainInvokeEvent` the sender check reads. */
export interface IpcSender {
  readonly sender: unknown;
  readonly senderFrame: SenderFrame | null;
}

/**
 * Why the desktop bridge refuses a call, or null when it is allowed. Only the
 * window's own page may call it: its main frame (never an iframe, which any
 * page could embed, nor a frame gone since), showing the app's current origin
 * (the local engine's or the chosen team server's). The preload exposes the
 * bridge to every frame of the window, so this check is what makes it the app's.
 */
export function ipcSenderRefusal(
  event: IpcSender,
  window: { webContents: unknown; mainFrame: SenderFrame },
  origin: string,
): string | null {
  const frame = event.senderFrame;
  if (event.sender !== window.webContents) return 'the call does not come from the app window';
  if (frame === null || frame.detached === true) return 'the calling frame is gone';
  if (frame.frameTreeNodeId !== window.mainFrame.frameTreeNodeId)
    return 'the call comes from a frame inside the page, not the page itself';
  if (frame.origin !== origin) return `the calling page is on ${frame.origin}, not on the app's origin ${origin}`;
  return null;
}
