import type { SendInput, SendResult } from '../server/replay/http-sender.ts';
import { parseTeamServerUrl, signInLinkFor, type EngineChoice, type EngineSwitch } from './engine-choice.ts';
import type { ForwardAnswer, ForwardManager, ForwardStatus } from './forward-manager.ts';
import { sendFromThisComputer, type LocalSendAnswer } from './local-send.ts';

/**
 * The IPC channels of `window.hookscopeDesktop` (electron/preload.cts spells the
 * same names: a sandboxed preload cannot import this file; a unit test holds
 * the two together).
 */
export const BRIDGE_CHANNELS = {
  engine: 'hookscope:engine',
  connectTeamServer: 'hookscope:connect-team-server',
  useThisComputer: 'hookscope:use-this-computer',
  sendFromThisComputer: 'hookscope:send-from-this-computer',
  startForwardFromThisComputer: 'hookscope:start-forward-from-this-computer',
  stopForwardFromThisComputer: 'hookscope:stop-forward-from-this-computer',
  forwardsFromThisComputer: 'hookscope:forwards-from-this-computer',
} as const;

/** The forwards of the team server shown, or why there are none to show. */
export type ForwardsAnswer = { ok: true; forwards: ForwardStatus[] } | { ok: false; error: string };

const NOT_ON_TEAM_SERVER = 'Forwarding from this computer is for a team server; this computer forwards by itself.';

export type ConnectResult = { ok: true } | { ok: false; error: string };

export interface DesktopBridgeDeps {
  engineSwitch: EngineSwitch;
  /** A sentence when `url` does not answer as a Hookscope engine, else null. */
  checkTeamServer(url: string): Promise<string | null>;
  /** Loads a page in the window (`win.loadURL`); rejects when it does not load. */
  load(url: string): Promise<void>;
  /** A fresh one-time sign-in page of the local engine. */
  localSignInPage(): Promise<string>;
  /** Keeps the choice for the next launch (desktop.json). */
  save(choice: EngineChoice): Promise<void>;
  /** Sends one request from this computer (server/replay/http-sender.ts `send`). */
  send: (input: SendInput) => Promise<SendResult>;
  /** "Forward from this computer" (forward-manager.ts): told each engine shown, asked for the one shown. */
  forwards: Pick<ForwardManager, 'show' | 'start' | 'stop' | 'list'>;
}

/** What each bridge call does, once its sender has been checked (main.ts). */
export interface DesktopBridge {
  engine(): EngineChoice;
  connectTeamServer(input: unknown): Promise<ConnectResult>;
  useThisComputer(): Promise<void>;
  /**
   * A replay to this computer asked by the page (a team server cannot reach the laptop's localhost):
   * the request checked (local-send.ts: loopback targets only), sent, the target's answer.
   */
  sendFromThisComputer(input: unknown): Promise<LocalSendAnswer>;
  /** Forwards an endpoint's deliveries of the team server shown to `targetUrl` on this computer, trading `signInCode` for the app's own token. */
  startForwardFromThisComputer(input: unknown): Promise<ForwardAnswer>;
  stopForwardFromThisComputer(input: unknown): Promise<ForwardAnswer>;
  forwardsFromThisComputer(): ForwardsAnswer;
  /** Back to "This computer" at `page` (its sign-in page unless given): the bridge, the tray, a notification. */
  showThisComputer(page?: string): Promise<void>;
}

function connectInput(input: unknown): { url: string; signInLink: string } | null {
  const { url, signInLink } = (input ?? {}) as { url?: unknown; signInLink?: unknown };
  return typeof url === 'string' && typeof signInLink === 'string' ? { url, signInLink } : null;
}

export function desktopBridge(deps: DesktopBridgeDeps): DesktopBridge {
  const { engineSwitch } = deps;
  const showThisComputer = async (page?: string): Promise<void> => {
    engineSwitch.set({ kind: 'local' });
    await deps.save({ kind: 'local' });
    // The previous team server's forwards stop (their choices stay, for when it is shown again).
    await deps.forwards.show({ kind: 'local' });
    await deps.load(page ?? (await deps.localSignInPage()));
  };
  const team = (): string | null => (engineSwitch.choice.kind === 'team' ? engineSwitch.choice.url : null);
  return {
    engine: () => engineSwitch.choice,
    showThisComputer,
    useThisComputer: () => showThisComputer(),
    sendFromThisComputer: (input) => sendFromThisComputer(input, deps.send),
    async startForwardFromThisComputer(input) {
      const url = team();
      return url === null ? { ok: false, error: NOT_ON_TEAM_SERVER } : deps.forwards.start(url, input);
    },
    async stopForwardFromThisComputer(input) {
      const url = team();
      return url === null ? { ok: false, error: NOT_ON_TEAM_SERVER } : deps.forwards.stop(url, input);
    },
    forwardsFromThisComputer() {
      const url = team();
      if (url === null) return { ok: false, error: NOT_ON_TEAM_SERVER };
      const list = deps.forwards.list(url);
      return list.ok ? { ok: true, forwards: list.value } : list;
    },
    async connectTeamServer(input) {
      const fields = connectInput(input);
      if (!fields) return { ok: false, error: 'Give both the team server URL and the sign-in link.' };
      const url = parseTeamServerUrl(fields.url);
      if (!url.ok) return url;
      const link = signInLinkFor(url.value, fields.signInLink);
      if (!link.ok) return link;
      // Checked before the window leaves this page, so a wrong address is said here, in Settings.
      const notHookscope = await deps.checkTeamServer(url.value);
      if (notHookscope) return { ok: false, error: notHookscope };
      const previous = engineSwitch.choice;
      engineSwitch.set({ kind: 'team', url: url.value });
      // Before the page loads, so that its first question about forwards is answered for this server.
      await deps.forwards.show(engineSwitch.choice);
      try {
        await deps.load(link.value);
      } catch {
        engineSwitch.set(previous);
        await deps.forwards.show(previous);
        await deps.load(previous.kind === 'team' ? `${previous.url}/` : await deps.localSignInPage());
        return { ok: false, error: `The team server at ${url.value} did not load in the window.` };
      }
      await deps.save(engineSwitch.choice);
      return { ok: true };
    },
  };
}
