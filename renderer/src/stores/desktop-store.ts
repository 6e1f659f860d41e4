import { createStore } from 'zustand/vanilla';
import type { LocalRequest, LocalSendResult as LocalSendResultOf } from '../../../electron/local-send-types.ts';
import type { RequestBody } from '../api/client.ts';
import type { ForwardFromComputer } from './forward-from-computer-store.ts';
import type { NoticesState } from './notices-store.ts';

/** The engine the desktop window shows: this computer's, or a team server's (its UI at its own origin). */
export type DesktopEngine = { kind: 'local' } | { kind: 'team'; url: string };

/**
 * `window.hookscopeDesktop`, put on the page by the desktop app's preload
 * (electron/preload.cts); absent in a browser. The main process answers each
 * call only from the window's own page.
 */
export interface DesktopBridge {
  engine(): Promise<DesktopEngine>;
  connectTeamServer(input: { url: string; signInLink: string }): Promise<{ ok: true } | { ok: false; error: string }>;
  useThisComputer(): Promise<void>;
  /**
   * Sends a request the engine built (`POST /api/replay/{id}/outgoing`) from this computer: the main
   * process takes loopback targets only (electron/local-send.ts) and answers what came back, or why it sent nothing.
   */
  sendFromThisComputer(request: LocalRequest): Promise<LocalSendAnswer>;
  /**
   * Forwards an endpoint's deliveries of the team server shown to `targetUrl` on this computer from the main
   * process (electron/forward-manager.ts), which trades `signInCode` (this page's `POST /api/session/codes`)
   * for a token of its own.
   */
  startForwardFromThisComputer(input: {
    endpointId: string;
    targetUrl: string;
    signInCode: string;
  }): Promise<{ ok: true } | { ok: false; error: string }>;
  stopForwardFromThisComputer(input: { endpointId: string }): Promise<{ ok: true } | { ok: false; error: string }>;
  /** The forwards of the team server shown; refused (ok: false) when this computer is shown. */
  forwardsFromThisComputer(): Promise<{ ok: true; forwards: ForwardFromComputer[] } | { ok: false; error: string }>;
}

export type { LocalRequest } from '../../../electron/local-send-types.ts';

/** What the target answered (body in base64, capped as the engine caps it), or why no answer came. */
export type LocalSendResult = LocalSendResultOf<
  NonNullable<RequestBody<'/api/replay/{webhookLogId}/sent', 'post'>['error']>['code']
>;

/** The target's result, or the desktop app's sentence saying why it sent nothing. */
export type LocalSendAnswer = { ok: true; result: LocalSendResult } | { ok: false; error: string };

declare global {
  interface Window {
    hookscopeDesktop?: DesktopBridge;
  }
}

export interface DesktopState {
  /** Whether this page runs in the desktop app: everything about the engine switch is hidden otherwise. */
  available: boolean;
  /** The engine shown, once read. */
  engine: DesktopEngine | null;
  /** A connection is under way (the window leaves this page when it succeeds). */
  connecting: boolean;
  /** The desktop app's sentence about the last URL or link given. */
  error: string | null;
  load(): Promise<void>;
  connect(url: string, signInLink: string): Promise<void>;
  useThisComputer(): Promise<void>;
}

/** "hooks.example.com" for a team server, as the top bar and Settings name it. */
export function engineLabel(engine: DesktopEngine): string {
  return engine.kind === 'team' ? new URL(engine.url).host : 'This computer';
}

export const createDesktopStore = (bridge: DesktopBridge | null, notices: Pick<NoticesState, 'error'>) =>
  createStore<DesktopState>()((set) => ({
    available: bridge !== null,
    engine: null,
    connecting: false,
    error: null,
    load: async () => {
      if (!bridge) return;
      try {
        set({ engine: await bridge.engine() });
      } catch (e) {
        notices.error('Reading the engine shown', e);
      }
    },
    connect: async (url, signInLink) => {
      if (!bridge) return;
      set({ connecting: true, error: null });
      try {
        const answer = await bridge.connectTeamServer({ url, signInLink });
        // On success the window loads the team server's page; this one is going away.
        set({ connecting: false, error: answer.ok ? null : answer.error });
      } catch (e) {
        set({ connecting: false });
        notices.error('Connecting to the team server', e);
      }
    },
    useThisComputer: async () => {
      if (!bridge) return;
      try {
        await bridge.useThisComputer();
      } catch (e) {
        notices.error('Switching to this computer', e);
      }
    },
  }));
