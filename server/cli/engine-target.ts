import { isAbsoluteHttpUrl } from '../api-client/shared.ts';
import { UsageError } from './cli-output.ts';

/** The flags (and their environment variables) that choose the engine a command talks to. */
export interface TargetInput {
  engine?: string;
  token?: string;
  user?: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Where a command sends its requests, and with which token:
 * - remote: an engine named by URL; its token is given, or `undefined` for the
 *   one `hookscope login` stored for that URL;
 * - local: the engine running for the data directory; its token is given, or
 *   `undefined` to mint one with the install's signing key.
 */
export type EngineTarget =
  { kind: 'remote'; url: string; token: string | undefined } | { kind: 'local'; token: string | undefined };

/** The precedence the help text and the docs state: flag > environment > stored login > data-dir discovery. */
export const ENGINE_CHOICE_HELP = `
Which engine and token:
  engine: --engine > $HOOKSCOPE_ENGINE_URL > the engine running for --data-dir (found through its runtime.json)
  token:  --token > $HOOKSCOPE_TOKEN > the token \`hookscope login <url>\` stored for that engine URL
          (an engine found through --data-dir gets one minted with the install's signing key)`;

/**
 * An engine URL as logins are keyed: origin and path, without a trailing slash,
 * query or fragment, so `https://h.example/` and `https://h.example` are one engine.
 * `named` is what the user wrote it in (a flag, a variable), for the error.
 */
export function normaliseEngineUrl(value: string, named: string): string {
  if (!isAbsoluteHttpUrl(value)) {
    throw new UsageError(
      `${named} must be an absolute http:// or https:// URL such as https://hooks.example.com; got "${value}".`,
    );
  }
  const url = new URL(value);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function resolveEngineTarget(input: TargetInput): EngineTarget {
  const fromEnv = (name: string): string | undefined => (input.env[name] === '' ? undefined : input.env[name]);
  const engine =
    input.engine !== undefined
      ? { value: input.engine, named: '--engine' }
      : fromEnv('HOOKSCOPE_ENGINE_URL') !== undefined
        ? { value: fromEnv('HOOKSCOPE_ENGINE_URL')!, named: 'HOOKSCOPE_ENGINE_URL' }
        : undefined;
  const token =
    input.token !== undefined
      ? { value: input.token, named: '--token' }
      : fromEnv('HOOKSCOPE_TOKEN') !== undefined
        ? { value: fromEnv('HOOKSCOPE_TOKEN')!, named: 'HOOKSCOPE_TOKEN' }
        : undefined;
  if (token?.value.trim() === '') throw new UsageError(`${token.named} is empty; it takes an API token (a JWT).`);
  // A token is signed for one account: --user could only be ignored or contradict it.
  const named = engine?.named ?? token?.named;
  if (input.user !== undefined && named !== undefined) {
    throw new UsageError(
      `--user cannot be used with ${named}: the token names the account. ` +
        'To act as another account, sign in with a link minted for it (`hookscope open --print --user <name>` on the server).',
    );
  }
  if (engine === undefined) return { kind: 'local', token: token?.value };
  return { kind: 'remote', url: normaliseEngineUrl(engine.value, engine.named), token: token?.value };
}
