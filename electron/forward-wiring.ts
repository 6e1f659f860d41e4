import { join } from 'node:path';
import { createApiClient } from '../server/api-client/api-client.ts';
import { ApiError, NETWORK_ERROR } from '../server/api-client/api-error.ts';
import type { RetryDelays } from '../server/cli/delivery-listener.ts';
import { ListenState } from '../server/cli/listen-state.ts';
import { LoginStore } from '../server/cli/login-store.ts';
import type { SendInput, SendResult } from '../server/replay/http-sender.ts';
import type { Logger } from '../server/support/logger.ts';
import { ForwardManager, type ForwardManagerDeps, type IssuedToken } from './forward-manager.ts';
import { startForwardRun } from './forward-run.ts';

/**
 * The directory, in the app's data directory, of what forwarding from this computer keeps: its own
 * credentials.json (one token per team server, 0600) and listen-state.json (the places per team server and
 * endpoint), apart from those of `hookscope login` and `hookscope listen` in the data directory itself.
 */
export const FORWARD_DIR = 'forward-from-this-computer';

export interface ForwardWiring {
  dataDir: string;
  choices: ForwardManagerDeps['choices'];
  send: (input: SendInput) => Promise<SendResult>;
  logger: Pick<Logger, 'warn'>;
  /** As `hookscope listen`: a refusing target 1 s, doubling, at most 30 s; the team server away 250 ms to 5 s. */
  retry?: RetryDelays;
  engineRetry?: RetryDelays;
  now?: () => number;
}

/** `POST /api/session/token` (what `hookscope login` calls), with a sentence for the page when it fails. */
export async function tradeSignInCode(teamUrl: string, code: string): Promise<IssuedToken> {
  try {
    return await createApiClient({ baseUrl: teamUrl }).post('/api/session/token', { body: { code } });
  } catch (e) {
    if (e instanceof ApiError && e.code === 'SIGN_IN_CODE_INVALID')
      throw new Error('The team server refused the sign-in code (expired or already used): start again.', {
        cause: e,
      });
    if (e instanceof ApiError && (e.code === NETWORK_ERROR || e.status >= 500))
      throw new Error(`The team server at ${teamUrl} does not answer; nothing was started.`, { cause: e });
    throw e;
  }
}

/** The main process's forward manager with its real parts: the files above, the API client, http-sender. */
export function forwardManager(w: ForwardWiring): ForwardManager {
  const dir = join(w.dataDir, FORWARD_DIR);
  const logins = new LoginStore(dir);
  const warn = (err: unknown, message: string): void => w.logger.warn({ err }, message);
  return new ForwardManager({
    choices: w.choices,
    tokens: {
      find: (teamUrl) => logins.find(teamUrl),
      save: (teamUrl, issued) => logins.save(teamUrl, issued),
    },
    tradeCode: tradeSignInCode,
    startRun: (spec, events) =>
      startForwardRun(
        { ...spec, places: new ListenState(dir, spec.teamUrl) },
        { ...events, warn },
        {
          send: w.send,
          retry: w.retry ?? { initialMs: 1000, maxMs: 30_000 },
          engineRetry: w.engineRetry ?? { initialMs: 250, maxMs: 5000 },
          timeoutMs: 30_000,
        },
      ),
    now: w.now ?? Date.now,
    warn,
  });
}
