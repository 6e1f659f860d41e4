export interface GracefulQuitDeps {
  /** Everything to finish before the process ends: the window state, then the engine (listeners, checkpoint, tunnel). */
  stop(): Promise<void>;
  /** Ends the app once stopped (`app.quit()` again, which this handler then lets through). */
  quit(): void;
  onError(err: unknown): void;
}

/**
 * The `before-quit` listener. Electron would end the process right after it, so
 * the first quit is held (`preventDefault`) until `stop` has finished, then
 * quits for real; quits asked for meanwhile (the tray's Quit clicked twice, a
 * signal) wait for the same stop. A stop that fails is reported and the app
 * still quits: the journal keeps every acknowledged delivery without a checkpoint.
 */
export function gracefulQuit(deps: GracefulQuitDeps): (event: { preventDefault(): void }) => void {
  let phase: 'running' | 'stopping' | 'stopped' = 'running';
  return (event) => {
    if (phase === 'stopped') return;
    event.preventDefault();
    if (phase === 'stopping') return;
    phase = 'stopping';
    deps
      .stop()
      .catch((err: unknown) => deps.onError(err))
      .finally(() => {
        phase = 'stopped';
        deps.quit();
      });
  };
}

/**
 * Closing the window while a tray icon is there (or on macOS, whose apps stay in
 * the Dock) hides it: the engine keeps capturing webhooks and the tray brings
 * the window back. Without a tray, closing it quits the app; during a quit it closes.
 */
export function closeAction(input: {
  quitting: boolean;
  hasTray: boolean;
  platform: NodeJS.Platform;
}): 'hide' | 'close' {
  if (input.quitting) return 'close';
  return input.hasTray || input.platform === 'darwin' ? 'hide' : 'close';
}

/** The window-like part `revealWindow` uses. */
export interface Revealable {
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

/** Brings the window to the front (a second launch, the tray's "Open Hookscope", a notification's click). */
export function revealWindow(win: Revealable): void {
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}
