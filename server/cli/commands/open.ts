import type { Command } from 'commander';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, type CliIO } from '../cli-output.ts';

interface OpenOptions extends ClientOptions {
  print?: boolean;
}

/** How the system browser is opened; tests pass their own (the `open` package spawns xdg-open and the like). */
export type BrowserOpener = (url: string) => Promise<unknown>;

/** The `open` package, loaded only when a browser is to be opened. */
const openInBrowser: BrowserOpener = async (url) => (await import('open')).default(url);

export function registerOpen(program: Command, io: CliIO, run: RunAction, opener: BrowserOpener = openInBrowser): void {
  withClientOptions(
    program
      .command('open')
      .description('Open the UI of the running engine in the system browser, signed in (a one-time link)')
      .option('--print', 'only print the sign-in link on stdout (one line), do not open a browser'),
    false,
  ).action((opts: OpenOptions) => run(() => open(opts, io, opener)));
}

async function open(opts: OpenOptions, io: CliIO, opener: BrowserOpener): Promise<number> {
  const api = await connect(opts, io);
  const link = await api.post('/api/session/codes');
  if (opts.print) {
    io.out(link.url);
    return EXIT.ok;
  }
  try {
    await opener(link.url);
  } catch (e) {
    // No browser here (a server, a container): the link still works from anywhere on this machine.
    io.err(`Could not open a browser (${e instanceof Error ? e.message : String(e)}); open this link yourself:`);
    io.out(link.url);
    return EXIT.ok;
  }
  io.out(`Opened the UI in your browser. The link works once, for 10 minutes: ${link.url}`);
  return EXIT.ok;
}
