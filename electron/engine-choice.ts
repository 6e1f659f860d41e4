/**
 * Which engine the window shows: "This computer" (the engine main.ts starts) or
 * a team server (`hookscope serve --database ...` on a shared host), whose own
 * UI the window then loads at the server's origin, signed in through a one-time
 * link from that server. The window's session cookie stays in the window's
 * session, per origin; the main process holds a token of its own only to forward
 * from this computer (forward-manager.ts), traded from a code the page asked for.
 */
export type EngineChoice = { kind: 'local' } | { kind: 'team'; url: string };

/** An answer for the renderer: a value, or a sentence saying what is wrong with the input. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A team server's address as the user typed it, normalised to origin + path
 * without a trailing slash (`https://hooks.example.com/team`). https only: the
 * window would otherwise send the session cookie in the clear. Plain http is
 * accepted on loopback alone (a server on this machine, tests, an SSH tunnel).
 */
export function parseTeamServerUrl(input: string): Checked<string> {
  const text = input.trim();
  if (text === '') return { ok: false, error: "Enter the team server's URL, e.g. https://hooks.example.com." };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, error: `"${text}" is not a URL; enter it in full, e.g. https://hooks.example.com.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, error: `The team server's URL must start with https:// (not ${url.protocol}).` };
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname))
    return {
      ok: false,
      error:
        'The team server must be reached over https:// (plain http:// only on this computer, e.g. http://127.0.0.1).',
    };
  if (url.username !== '' || url.password !== '')
    return { ok: false, error: "The team server's URL must not carry a user name or password." };
  if (url.search !== '' || url.hash !== '')
    return { ok: false, error: "The team server's URL must not have a query (?...) or a fragment (#...)." };
  return { ok: true, value: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

/**
 * The page to load to sign in to the team server at `teamUrl` (normalised by
 * `parseTeamServerUrl`): `pasted` is the whole link the server's
 * `hookscope open --print` printed (`https://hooks.example.com/#/sign-in/<code>`)
 * or only its code. A link must be on the team server's own origin: the window
 * is never sent anywhere else on its say-so.
 */
export function signInLinkFor(teamUrl: string, pasted: string): Checked<string> {
  const text = pasted.trim();
  if (text === '')
    return { ok: false, error: 'Paste the sign-in link printed by `hookscope open --print` on the team server.' };
  const team = new URL(teamUrl);
  let code: string;
  if (/^[A-Za-z0-9_-]+$/.test(text)) {
    code = text;
  } else {
    let link: URL;
    try {
      link = new URL(text);
    } catch {
      return { ok: false, error: 'The sign-in link is neither a link nor a code; paste it as the server printed it.' };
    }
    if (link.origin !== team.origin)
      return { ok: false, error: `The sign-in link is not on the team server (${team.host}); it is on ${link.host}.` };
    const match = /^#\/sign-in\/([A-Za-z0-9_-]+)$/.exec(link.hash);
    if (!match) return { ok: false, error: 'The sign-in link has no sign-in code (#/sign-in/<code>).' };
    code = match[1]!;
  }
  return { ok: true, value: `${teamUrl}/#/sign-in/${code}` };
}

/** The origin of the page the window shows: the local engine's, or the team server's. */
export function currentOrigin(choice: EngineChoice, localOrigin: string): string {
  return choice.kind === 'team' ? new URL(choice.url).origin : localOrigin;
}

/** The one mutable piece of the switch: read by the session's handlers at each call, so they follow it. */
export class EngineSwitch {
  #choice: EngineChoice;
  readonly localOrigin: string;

  constructor(initial: EngineChoice, localOrigin: string) {
    this.#choice = initial;
    this.localOrigin = localOrigin;
  }

  get choice(): EngineChoice {
    return this.#choice;
  }

  set(choice: EngineChoice): void {
    this.#choice = choice;
  }

  /** The app's origin now: what navigation, permissions and the IPC sender check compare with. */
  origin(): string {
    return currentOrigin(this.#choice, this.localOrigin);
  }

  /**
   * What the session may load: the current origin, and the local engine's, so
   * that "This computer" can always come back (and its notifications open).
   */
  loadableOrigins(): string[] {
    const origin = this.origin();
    return origin === this.localOrigin ? [origin] : [origin, this.localOrigin];
  }
}
