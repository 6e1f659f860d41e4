/**
 * A stand-in for the desktop app's `window.hookscopeDesktop` (electron/preload.cts),
 * for the renderer's tests: in Chromium through `page.addInitScript(desktopBridgeStandIn, options)`,
 * in jsdom by calling it. It records every call and behaves like the desktop app
 * would, in short: connecting refuses what the main process refuses most often (a
 * URL that is no URL, plain http off this computer, no sign-in link) with the
 * same sentences, otherwise shows the team server (the page is reloaded, as the
 * window loads another page); "Use this computer" comes back. State and calls
 * live in sessionStorage so they survive that reload. `sendFromThisComputer` hands
 * the request to a function the test exposes to the page (`sendBinding`,
 * page.exposeFunction: the main process's own send call, run in the test process),
 * or, without one, refuses. The forward calls hand their input to the test's functions
 * (`forwardBindings`: the main process's real forward manager, run in the test process), or, without
 * them, keep forwards in the state as the main process would answer (a target off this computer refused
 * with its sentence, a sign-in code required, nothing while this computer is shown).
 * Self-contained: Playwright sends its source to the page.
 */
export interface DesktopBridgeStandInOptions {
  engine: { kind: 'local' } | { kind: 'team'; url: string };
  /** Reload the page after a switch, as the window would load another one (not in jsdom). */
  reloadOnSwitch: boolean;
  /** The name of a page function that sends for `sendFromThisComputer` (the test's, through exposeFunction). */
  sendBinding?: string;
  /** The names of page functions answering the three forward calls (the test's, through exposeFunction). */
  forwardBindings?: { start: string; stop: string; list: string };
}

export interface StandInForward {
  endpointId: string;
  targetUrl: string;
  state: 'catching-up' | 'live' | 'retrying' | 'stopped';
  lastLine: string | null;
}

export interface DesktopBridgeStandInState {
  engine: DesktopBridgeStandInOptions['engine'];
  calls: unknown[][];
  /** The forwards from this computer, without `forwardBindings`. */
  forwards: StandInForward[];
}

export const DESKTOP_BRIDGE_STAND_IN_KEY = 'hookscope.desktopBridgeStandIn';

export function desktopBridgeStandIn(options: DesktopBridgeStandInOptions): void {
  const key = 'hookscope.desktopBridgeStandIn'; // DESKTOP_BRIDGE_STAND_IN_KEY: the page gets this function's source only
  const page = globalThis as unknown as {
    sessionStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
    location: { reload(): void };
    hookscopeDesktop?: unknown;
  } & Record<string, unknown>;
  const saved = page.sessionStorage.getItem(key);
  const state = (
    saved ? JSON.parse(saved) : { engine: options.engine, calls: [], forwards: [] }
  ) as DesktopBridgeStandInState;
  const save = (): void => page.sessionStorage.setItem(key, JSON.stringify(state));
  save();
  const refuse = (error: string): { ok: false; error: string } => {
    save();
    return { ok: false, error };
  };
  const switched = (): void => {
    save();
    if (options.reloadOnSwitch) setTimeout(() => page.location.reload(), 0);
  };
  page.hookscopeDesktop = {
    engine: async () => {
      state.calls.push(['engine']);
      save();
      return state.engine;
    },
    connectTeamServer: async (input: { url: string; signInLink: string }) => {
      state.calls.push(['connectTeamServer', input]);
      let url: URL;
      try {
        url = new URL(input.url.trim());
      } catch {
        return refuse(`"${input.url.trim()}" is not a URL; enter it in full, e.g. https://hooks.example.com.`);
      }
      if (url.protocol !== 'https:')
        return refuse(
          'The team server must be reached over https:// (plain http:// only on this computer, e.g. http://127.0.0.1).',
        );
      if (input.signInLink.trim() === '')
        return refuse('Paste the sign-in link printed by `hookscope open --print` on the team server.');
      state.engine = { kind: 'team', url: url.origin };
      switched();
      return { ok: true };
    },
    useThisComputer: async () => {
      state.calls.push(['useThisComputer']);
      state.engine = { kind: 'local' };
      switched();
    },
    sendFromThisComputer: async (request: unknown) => {
      state.calls.push(['sendFromThisComputer', request]);
      save();
      const sender = options.sendBinding ? page[options.sendBinding] : undefined;
      if (typeof sender !== 'function') return { ok: false, error: 'The stand-in has no sender.' };
      return (sender as (r: unknown) => Promise<unknown>)(request);
    },
    startForwardFromThisComputer: async (input: { endpointId: string; targetUrl: string; signInCode: string }) => {
      state.calls.push(['startForwardFromThisComputer', input]);
      const bound = options.forwardBindings ? page[options.forwardBindings.start] : undefined;
      if (typeof bound === 'function') {
        save();
        return (bound as (i: unknown) => Promise<unknown>)(input);
      }
      if (state.engine.kind === 'local')
        return refuse('Forwarding from this computer is for a team server; this computer forwards by itself.');
      let target: URL;
      try {
        target = new URL(input.targetUrl.trim());
      } catch {
        return refuse(`"${input.targetUrl}" is not an absolute URL; the desktop app sends only to this computer.`);
      }
      if (!['localhost', '127.0.0.1', '[::1]'].includes(target.hostname))
        return refuse(
          `The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); ${target.origin}/ is sent by the team server.`,
        );
      if (!input.signInCode) return refuse('signInCode must be a one-time sign-in code from POST /api/session/codes.');
      state.forwards = state.forwards.filter((f) => f.endpointId !== input.endpointId);
      state.forwards.push({
        endpointId: input.endpointId,
        targetUrl: target.href,
        state: 'catching-up',
        lastLine: null,
      });
      save();
      return { ok: true };
    },
    stopForwardFromThisComputer: async (input: { endpointId: string }) => {
      state.calls.push(['stopForwardFromThisComputer', input]);
      const bound = options.forwardBindings ? page[options.forwardBindings.stop] : undefined;
      if (typeof bound === 'function') {
        save();
        return (bound as (i: unknown) => Promise<unknown>)(input);
      }
      for (const f of state.forwards) if (f.endpointId === input.endpointId) f.state = 'stopped';
      save();
      return { ok: true };
    },
    forwardsFromThisComputer: async () => {
      state.calls.push(['forwardsFromThisComputer']);
      save();
      const bound = options.forwardBindings ? page[options.forwardBindings.list] : undefined;
      if (typeof bound === 'function') return (bound as () => Promise<unknown>)();
      if (state.engine.kind === 'local')
        return {
          ok: false,
          error: 'Forwarding from this computer is for a team server; this computer forwards by itself.',
        };
      return { ok: true, forwards: state.forwards };
    },
  };
}

/**
 * The stand-in as a Chromium init script (`page.addInitScript({ content })`). The
 * function's source, as tsx compiled it, calls esbuild's `__name` helper, which
 * the page does not have: the script brings a do-nothing one.
 */
export function desktopBridgeStandInScript(options: DesktopBridgeStandInOptions): string {
  return `var __name = (f) => f;\n(${desktopBridgeStandIn.toString()})(${JSON.stringify(options)});`;
}
