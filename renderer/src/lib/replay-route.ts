import { localTarget } from '../../../electron/local-target.ts';
import type { DesktopEngine } from '../stores/desktop-store.ts';

/**
 * Who sends a replay: the engine the page shows (as always), or the desktop app
 * from this computer. A team server cannot reach the laptop's localhost, so in
 * the desktop app showing a team server a target on this computer is sent by
 * the app's main process; every other target a team server reaches itself, and
 * the local engine reaches localhost itself. "On this computer" is the main
 * process's own rule (electron/local-target.ts), so the page never routes there
 * a target the app would refuse.
 */
export type ReplayRoute = 'this-computer' | 'engine';

export function replayRoute(engine: DesktopEngine | null, targetUrl: string): ReplayRoute {
  return engine?.kind === 'team' && localTarget(targetUrl.trim()).ok ? 'this-computer' : 'engine';
}
