import { STATUS_CODES } from 'node:http';
import { Option, type Command } from 'commander';
import { MAX_TIMEOUT_MS, REPLAY_METHODS } from '../../api-client/shared.ts';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, type CliIO } from '../cli-output.ts';
import { choiceArg, httpUrlArg, intArg } from '../option-parsers.ts';
import { colorsFor, printJson, renderTable, type Colors } from '../render.ts';
import { terminalSafe } from '../terminal-safe.ts';
import { headerText } from '../../support/header-text.ts';

interface ReplayOptions extends ClientOptions {
  to: string;
  resign?: boolean;
  method?: (typeof REPLAY_METHODS)[number];
  timeout?: number;
}

export function registerReplay(program: Command, io: CliIO, run: RunAction): void {
  withClientOptions(
    program
      .command('replay')
      .description('Send a stored delivery again (same method, headers and bytes) to a URL, e.g. your local dev server')
      .argument('<logId>', 'log id (log_...)')
      .addOption(
        new Option('--to <url>', 'target URL, absolute http:// or https:// (required)')
          .argParser(httpUrlArg)
          .makeOptionMandatory(),
      )
      .option('--resign', "sign again with a fresh timestamp so the handler's tolerance check passes")
      .option(
        '--method <method>',
        `override the method: ${REPLAY_METHODS.join(', ')}`,
        // Any case is accepted, as before: `--method post`.
        choiceArg(REPLAY_METHODS, (m) => m.toUpperCase()),
      )
      .option(
        '--timeout <ms>',
        `give up after this many milliseconds (1 to ${MAX_TIMEOUT_MS})`,
        intArg(1, MAX_TIMEOUT_MS),
      ),
  )
    .addHelpText(
      'after',
      '\nExit code 0 when the target answered below 400, 1 when it answered 4xx/5xx, timed out or could not be reached.',
    )
    .action((logId: string, opts: ReplayOptions) => run(() => replay(logId, opts, io)));
}

async function replay(logId: string, opts: ReplayOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  // 502/504 (unreachable, timeout) arrive as ApiError: one line, exit 1, and the attempt is in history.
  const r = await api.post('/api/replay/{webhookLogId}', {
    params: { path: { webhookLogId: logId } },
    body: { targetUrl: opts.to, method: opts.method, timeoutMs: opts.timeout, resign: opts.resign ? true : undefined },
  });
  const failed = r.status === null || r.status >= 400;
  if (opts.json) {
    printJson(io, r);
    return failed ? EXIT.failure : EXIT.ok;
  }
  const c = colorsFor(io);
  // The target's answer is as untrusted as a delivery: escaped on a terminal.
  const safe = terminalSafe(io.isTTY);
  io.out(
    `${r.method} ${safe(r.targetUrl)} -> ${statusWithText(r.status, c)} in ${r.responseTime} ms ${c.dim(`(${r.id})`)}`,
  );
  if (r.responseRawHeaders.length > 0)
    io.out(
      renderTable(
        null,
        r.responseRawHeaders.map(([n, v]) => [c.dim(safe(n)), safe(headerText(v))]),
        c,
      ),
    );
  if (r.responseBody.length > 0) {
    const notes = [r.bodyEncoding === 'base64' ? 'binary, shown as base64' : '', r.truncated ? 'truncated' : ''].filter(
      Boolean,
    );
    io.out('');
    io.out(c.bold(`Response body${notes.length ? ` (${notes.join('; ')})` : ''}`));
    io.out(safe(r.responseBody));
  }
  return failed ? EXIT.failure : EXIT.ok;
}

export function statusWithText(status: number | null, c: Colors): string {
  if (status === null) return c.red('no response');
  const text = `${status} ${STATUS_CODES[status] ?? ''}`.trim();
  return status < 400 ? c.green(text) : c.red(text);
}
