import type { Command } from 'commander';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, type CliIO } from '../cli-output.ts';
import { printJson } from '../render.ts';
import { terminalSafe } from '../terminal-safe.ts';

interface ExplainOptions extends ClientOptions {
  refresh?: boolean;
}

export function registerExplain(program: Command, io: CliIO, run: RunAction): void {
  withClientOptions(
    program
      .command('explain')
      .description('Explain why a delivery (or its replay) failed: proven causes, evidence and steps to fix it')
      .argument('<logId>', 'log id (log_...)')
      .option('--refresh', 'recompute instead of answering the stored analysis'),
  ).action((logId: string, opts: ExplainOptions) => run(() => explain(logId, opts, io)));
}

async function explain(logId: string, opts: ExplainOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const refresh = opts.refresh ? 'true' : undefined;
  if (opts.json) {
    const analysis = await api.get('/api/cli/explain/{logId}', {
      params: { path: { logId }, query: { format: 'json', refresh } },
    });
    printJson(io, analysis);
    return EXIT.ok;
  }
  // The engine words the terminal version itself (format=text), so the CLI and the API agree.
  // It quotes what the sender and the target sent, so it is escaped on a terminal.
  const text = await api.getText('/api/cli/explain/{logId}', {
    params: { path: { logId }, query: { format: 'text', refresh } },
  });
  io.out(terminalSafe(io.isTTY)(text.trimEnd()));
  return EXIT.ok;
}
