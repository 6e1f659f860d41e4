import type { Command } from 'commander';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, type CliIO } from '../cli-output.ts';
import { intArg } from '../option-parsers.ts';
import { colorsFor, formatDateTime, printJson, renderTable } from '../render.ts';
import { terminalSafe } from '../terminal-safe.ts';
import { statusWithText } from './replay.ts';

interface HistoryOptions extends ClientOptions {
  limit?: number;
  offset?: number;
}

export function registerHistory(program: Command, io: CliIO, run: RunAction): void {
  withClientOptions(
    program
      .command('history')
      .description("A delivery's replays and forwards, newest first")
      .argument('<logId>', 'log id (log_...)')
      .option('--limit <n>', 'page size, 1 to 200 (default 50)', intArg(1, 200))
      .option('--offset <n>', 'skip this many (default 0)', intArg(0, 100_000_000)),
  ).action((logId: string, opts: HistoryOptions) => run(() => history(logId, opts, io)));
}

async function history(logId: string, opts: HistoryOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const page = await api.get('/api/replay/{webhookLogId}/history', {
    params: {
      path: { webhookLogId: logId },
      query: { limit: opts.limit?.toString(), offset: opts.offset?.toString() },
    },
  });
  if (opts.json) {
    printJson(io, page);
    return EXIT.ok;
  }
  if (page.history.length === 0) {
    io.out(`No replays or forwards of ${logId} yet. Send one with: hookscope replay ${logId} --to URL`);
    return EXIT.ok;
  }
  const c = colorsFor(io);
  const safe = terminalSafe(io.isTTY);
  const rows = page.history.map((h) => [
    formatDateTime(h.createdAt),
    h.id,
    h.trigger,
    h.method,
    safe(h.targetUrl),
    statusWithText(h.status, c),
    `${h.responseTime} ms`,
    h.error ? safe(`${h.error.code}: ${h.error.message}`) : '',
  ]);
  io.out(renderTable(['TIME', 'ID', 'TRIGGER', 'METHOD', 'TARGET', 'STATUS', 'TIME TAKEN', 'ERROR'], rows, c));
  if (page.total > page.history.length) io.out(c.dim(`${page.history.length} of ${page.total}`));
  return EXIT.ok;
}
