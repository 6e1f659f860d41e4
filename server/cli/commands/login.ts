import type { Command } from 'commander';
import { resolveDataDir } from '../../config/data-dir.ts';
import { EXIT, UsageError, type CliIO } from '../cli-output.ts';
import { normaliseEngineUrl } from '../engine-target.ts';
import { formatDateTime } from '../render.ts';
import type { SecretWording } from '../secret-input.ts';
import { signInCodeFrom } from '../sign-in-code-input.ts';
import type { RunAction } from '../client-options.ts';

interface LoginOptions {
  code?: string;
  dataDir?: string;
  json?: boolean;
}

const CODE_WORDING: SecretWording = {
  prompt:
    'Paste the sign-in link (or its code) that `hookscope open --print` printed on the server, then press Enter (it is not shown):',
  missing: 'No sign-in link or code was given: paste or pipe it in, or pass --code.',
  severalLines: 'Standard input holds several lines; a sign-in link or code is one line.',
  tooLong: 'a sign-in link is far shorter.',
  notEntered: 'No sign-in link or code was entered.',
};

export const DATA_DIR_FOR_LOGINS =
  'data directory whose credentials.json keeps the tokens (default: $HOOKSCOPE_DATA_DIR or the OS data folder)';

export function registerLogin(program: Command, io: CliIO, run: RunAction): void {
  program
    .command('login')
    .description(
      'Sign in to an engine by URL (a team server) with a one-time link from its `hookscope open --print`, ' +
        'and keep the token for commands run with --engine <url>',
    )
    .argument('<url>', "the engine's address, e.g. https://hooks.example.com")
    .option(
      '--code <link-or-code>',
      'the sign-in link or its code, for scripts (default: read one line from standard input, prompted on a terminal)',
    )
    .option('--data-dir <dir>', DATA_DIR_FOR_LOGINS)
    .option('--json', 'print { engine, accountId, account, expiresAt, credentials } as JSON (never the token)')
    .addHelpText(
      'after',
      `
On the server, \`hookscope open --print [--user <name>]\` prints a sign-in link that works once, for
10 minutes. \`hookscope login <url>\` trades it for an API token of that account and keeps the token in
<data-dir>/credentials.json (mode 0600), one per engine URL; the token is never printed. Then every
command run with --engine <url> (or HOOKSCOPE_ENGINE_URL=<url>) uses it. \`hookscope logout <url>\`
forgets it. The token lasts as long as the engine's token lifetime (HOOKSCOPE_TOKEN_TTL, 30 days by default).

Examples:
  hookscope login https://hooks.example.com
  hookscope login https://hooks.example.com --code 'https://hooks.example.com/#/sign-in/…'
  hookscope endpoints --engine https://hooks.example.com`,
    )
    .action((url: string, opts: LoginOptions) => run(() => login(url, opts, io)));
}

async function login(urlArg: string, opts: LoginOptions, io: CliIO): Promise<number> {
  const url = normaliseEngineUrl(urlArg, 'The engine URL');
  const code = signInCodeFrom(opts.code ?? (await readCode(io)));
  // Loaded here: the API client and zod, which --help does not need.
  const [{ tradeSignInCode }, { LoginStore }] = await Promise.all([
    import('../remote-engine.ts'),
    import('../login-store.ts'),
  ]);
  const issued = await tradeSignInCode(url, code);
  const store = new LoginStore(resolveDataDir({ flag: opts.dataDir, env: io.env }));
  await store.save(url, {
    token: issued.token,
    accountId: issued.accountId,
    account: issued.account,
    expiresAt: issued.expiresAt,
  });
  if (opts.json) {
    const { accountId, account, expiresAt } = issued;
    io.out(JSON.stringify({ engine: url, accountId, account, expiresAt, credentials: store.path }));
    return EXIT.ok;
  }
  io.out(`Signed in to ${url} as "${issued.account}" (${issued.accountId}).`);
  io.out(
    `The token is kept in ${store.path} until ${formatDateTime(issued.expiresAt)}; commands use it with --engine ${url}.`,
  );
  return EXIT.ok;
}

async function readCode(io: CliIO): Promise<string> {
  if (!io.stdin) throw new UsageError('--code is required here (no standard input to read it from).');
  const { readSecret } = await import('../secret-input.ts');
  return readSecret(io.stdin(), io.err, CODE_WORDING);
}
