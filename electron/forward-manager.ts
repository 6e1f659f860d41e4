import type { Checked, EngineChoice } from './engine-choice.ts';
import { parseStartForward, parseStopForward, type ForwardChoice } from './forward-input.ts';
import { SignInExpiredError, type ForwardRun, type RunState } from './forward-run.ts';

export type ForwardState = RunState | 'stopped';

/** One endpoint's forward as the page shows it (`forwardsFromThisComputer`). */
export interface ForwardStatus {
  endpointId: string;
  targetUrl: string;
  state: ForwardState;
  /** The last line about it: a delivery forwarded (its time, method, path, the target's status) or retried, or why it stopped. */
  lastLine: string | null;
}

/** A token the main process holds for one team server (the answer of `POST /api/session/token`). */
export interface IssuedToken {
  token: string;
  accountId: string;
  account: string;
  expiresAt: string;
}

export interface ForwardRunEventsFor {
  state(state: RunState): void;
  line(text: string): void;
  ended(error: unknown): void;
}

export interface ForwardManagerDeps {
  /** The forward choices kept per team server (desktop.json). */
  choices: {
    load(teamUrl: string): ForwardChoice[];
    save(teamUrl: string, choices: ForwardChoice[]): Promise<void>;
  };
  /** The main process's own token per team server, in its 0600 file (server/cli/login-store.ts). */
  tokens: {
    find(teamUrl: string): Promise<IssuedToken | undefined>;
    save(teamUrl: string, issued: IssuedToken): Promise<void>;
  };
  /** `POST /api/session/token`: the page's one-time code for a bearer token of the page's account. */
  tradeCode(teamUrl: string, code: string): Promise<IssuedToken>;
  /** Starts one endpoint's forward (forward-run.ts `startForwardRun`). */
  startRun(
    spec: { teamUrl: string; endpointId: string; targetUrl: string; token: string },
    events: ForwardRunEventsFor,
  ): ForwardRun;
  now: () => number;
  warn(err: unknown, message: string): void;
}

interface Forward {
  targetUrl: string;
  state: ForwardState;
  lastLine: string | null;
  run: ForwardRun | null;
}

export type ForwardAnswer = { ok: true } | { ok: false; error: string };

export const SIGN_IN_EXPIRED = new SignInExpiredError().message;

/**
 * "Forward from this computer" for the team server the window shows: one run per endpoint that is on
 * (forward-run.ts), the choices kept in desktop.json per team server, the token in the main process's own
 * file. Showing another engine stops the runs of the one shown before (its choices stay; they resume when it
 * is shown again, as at launch); a token the team server refuses stops the forward and says so.
 */
export class ForwardManager {
  #team: string | null = null;
  readonly #forwards = new Map<string, Forward>();

  constructor(private readonly deps: ForwardManagerDeps) {}

  /** The window shows `choice` now (at launch, and after each switch). */
  async show(choice: EngineChoice): Promise<void> {
    const team = choice.kind === 'team' ? choice.url : null;
    if (team === this.#team) return;
    await this.stopAll();
    this.#team = team;
    if (team === null) return;
    for (const c of this.deps.choices.load(team))
      this.#forwards.set(c.endpointId, { targetUrl: c.targetUrl, state: 'stopped', lastLine: null, run: null });
    const on = this.deps.choices.load(team).filter((c) => c.on);
    if (on.length === 0) return;
    const login = await this.deps.tokens.find(team).catch((err: unknown) => {
      this.deps.warn(err, 'the token for forwarding from this computer could not be read');
      return undefined;
    });
    const usable = login !== undefined && Date.parse(login.expiresAt) > this.deps.now();
    for (const c of on) {
      if (usable) this.launch(team, c.endpointId, c.targetUrl, login.token);
      else await this.expired(team, c.endpointId);
    }
  }

  /** `startForwardFromThisComputer`, for the team server shown (`team`). */
  async start(team: string, input: unknown): Promise<ForwardAnswer> {
    if (team !== this.#team) return { ok: false, error: 'Forwarding from this computer is for the team server shown.' };
    const parsed = parseStartForward(input);
    if (!parsed.ok) return parsed;
    const { endpointId, targetUrl, signInCode } = parsed.value;
    let issued: IssuedToken;
    try {
      issued = await this.deps.tradeCode(team, signInCode);
      await this.deps.tokens.save(team, issued);
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    if (team !== this.#team) return { ok: false, error: 'Another engine is shown now; nothing was started.' };
    await this.#forwards.get(endpointId)?.run?.stop();
    await this.saveChoice(team, { endpointId, targetUrl, on: true });
    this.launch(team, endpointId, targetUrl, issued.token);
    return { ok: true };
  }

  /** `stopForwardFromThisComputer`: the run stops; the target stays chosen for the next start. */
  async stop(team: string, input: unknown): Promise<ForwardAnswer> {
    if (team !== this.#team) return { ok: false, error: 'Forwarding from this computer is for the team server shown.' };
    const endpointId = parseStopForward(input);
    if (!endpointId.ok) return endpointId;
    const forward = this.#forwards.get(endpointId.value);
    if (!forward) return { ok: true };
    await forward.run?.stop();
    await this.saveChoice(team, { endpointId: endpointId.value, targetUrl: forward.targetUrl, on: false });
    return { ok: true };
  }

  /** `forwardsFromThisComputer`: every endpoint with a forward chosen on the team server shown. */
  list(team: string): Checked<ForwardStatus[]> {
    if (team !== this.#team) return { ok: false, error: 'Forwarding from this computer is for the team server shown.' };
    return {
      ok: true,
      value: [...this.#forwards].map(([endpointId, f]) => ({
        endpointId,
        targetUrl: f.targetUrl,
        state: f.state,
        lastLine: f.lastLine,
      })),
    };
  }

  /** Every run stopped (a switch of engine, quit); the choices stay as they are. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#forwards.values()].map((f) => f.run?.stop() ?? Promise.resolve()));
    this.#forwards.clear();
  }

  private launch(team: string, endpointId: string, targetUrl: string, token: string): void {
    const forward: Forward = { targetUrl, state: 'catching-up', lastLine: null, run: null };
    this.#forwards.set(endpointId, forward);
    // Events of a run that a later one replaced, or of a team server no longer shown, change nothing.
    const current = (): boolean => this.#forwards.get(endpointId) === forward && this.#team === team;
    forward.run = this.deps.startRun(
      { teamUrl: team, endpointId, targetUrl, token },
      {
        state: (state) => {
          if (current()) forward.state = state;
        },
        line: (text) => {
          if (current()) forward.lastLine = text;
        },
        ended: (error) => {
          forward.state = 'stopped';
          forward.run = null;
          if (error === null || !current()) return;
          if (error instanceof SignInExpiredError) {
            void this.expired(team, endpointId);
            return;
          }
          forward.lastLine = `Stopped: ${error instanceof Error ? error.message : JSON.stringify(error)}`;
          this.deps.warn(error, 'a forward from this computer stopped');
        },
      },
    );
  }

  /** The team server refused the token (or none is kept): the forward is off until started again from the page. */
  private async expired(team: string, endpointId: string): Promise<void> {
    const forward = this.#forwards.get(endpointId);
    if (!forward) return;
    forward.state = 'stopped';
    forward.lastLine = SIGN_IN_EXPIRED;
    await this.saveChoice(team, { endpointId, targetUrl: forward.targetUrl, on: false });
  }

  private async saveChoice(team: string, choice: ForwardChoice): Promise<void> {
    const others = this.deps.choices.load(team).filter((c) => c.endpointId !== choice.endpointId);
    await this.deps.choices
      .save(team, [...others, choice])
      .catch((err: unknown) => this.deps.warn(err, 'the forward choices were not saved'));
  }
}
