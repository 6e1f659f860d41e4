import type { Command } from 'commander';
import { resolveDataDir } from '../../config/data-dir.ts';
import { EXIT, UsageError, type CliIO } from '../cli-output.ts';
import type { RunAction } from '../client-options.ts';
import { normaliseEngineUrl } from '../engine-target.ts';
import { DATA_DIR_FOR_LOGINS } from './login.ts';

interface LogoutOptions {
  dataDir?: string;
}

export function registerLogout(program: Command, io: CliIO, run: RunAction): void {
  program
    .command('logout')
    .description('Forget the token `hookscope login` kept for an engine URL')
    .argument('[url]', 'the engine (default: $HOOKSCOPE_ENGINE_URL, else the only engine with a stored token)')
    .option('--data-dir <dir>', DATA_DIR_FOR_LOGINS)
    .addHelpText(
      'after',
      `
The token is removed from <data-dir>/credentials.json. A token is a signed JWT that the engine does not
keep, so a copy made elsewhere still works until it expires.`,
    )
    .action((url: string | undefined, opts: LogoutOptions) => run(() => logout(url, opts, io)));
}

async function logout(urlArg: string | undefined, opts: LogoutOptions, io: CliIO): Promise<number> {
  const { LoginStore } = await import('../login-store.ts');
  const store = new LoginStore(resolveDataDir({ flag: opts.dataDir, env: io.env }));
  const envUrl = io.env.HOOKSCOPE_ENGINE_URL === '' ? undefined : io.env.HOOKSCOPE_ENGINE_URL;
  let url: string;
  if (urlArg !== undefined) url = normaliseEngineUrl(urlArg, 'The engine URL');
  else if (envUrl !== undefined) url = normaliseEngineUrl(envUrl, 'HOOKSCOPE_ENGINE_URL');
  else {
    const stored = [...(await store.all()).keys()];
    if (stored.length === 0) {
      io.out(`No token is stored in ${store.path}; there was nothing to forget.`);
      return EXIT.ok;
    }
    if (stored.length > 1) {
      throw new UsageError(
        `Tokens are stored for ${stored.join(', ')}: name the engine, e.g. \`hookscope logout ${stored[0]}\`.`,
      );
    }
    url = stored[0]!;
  }
  io.out(
    (await store.forget(url))
      ? `Forgot the token for ${url} (removed from ${store.path}).`
      : `There was no token stored for ${url} in ${store.path}; nothing changed.`,
  );
  return EXIT.ok;
}
