import type { Command } from 'commander';
import type { ApiClient } from '../api-client/api-client.ts';
import { LOCAL_ACCOUNT } from '../auth/account-id.ts';
import type { CliIO } from './cli-output.ts';
import { ENGINE_CHOICE_HELP } from './engine-target.ts';

/** Runs a command's action; main.ts turns its result or error into the exit code. */
export type RunAction = (action: () => Promise<number>) => Promise<void>;

/** The flags every command that talks to a running engine takes. */
export interface ClientOptions {
  dataDir?: string;
  user?: string;
  engine?: string;
  token?: string;
  json?: boolean;
}

export function withClientOptions(cmd: Command, json = true): Command {
  cmd
    .option('--engine <url>', 'talk to the engine at this URL, e.g. a team server (default: $HOOKSCOPE_ENGINE_URL)')
    .option(
      '--token <jwt>',
      'API token for that engine (default: $HOOKSCOPE_TOKEN, else the one `hookscope login <url>` stored)',
    )
    .option(
      '--data-dir <dir>',
      'data directory of the running engine, and where `hookscope login` keeps tokens ' +
        '(default: $HOOKSCOPE_DATA_DIR or the OS data folder)',
    )
    .option(
      '--user <name>',
      `act as this account on the engine of --data-dir (default "${LOCAL_ACCOUNT}"; not with --engine or --token)`,
    );
  if (json) cmd.option('--json', "print the result as JSON (the API's data) for scripts");
  return cmd.addHelpText('after', ENGINE_CHOICE_HELP);
}

export async function connect(opts: ClientOptions, io: CliIO): Promise<ApiClient> {
  // Loaded on first use: it brings the API client and the token signer (jose), which --help does not need.
  const { connectToEngine } = await import('./engine-connection.ts');
  return connectToEngine({
    dataDir: opts.dataDir,
    user: opts.user,
    engine: opts.engine,
    token: opts.token,
    env: io.env,
  });
}
