import { Option, type Command } from 'commander';
import type { ApiSchemas } from '../../api-client/api-client.ts';
import { followEvents, type EngineEventShape } from '../../api-client/event-follower.ts';
import { LOG_STATUSES, type LogStatus } from '../../api-client/shared.ts';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, type CliIO } from '../cli-output.ts';
import { EngineNotRunningError } from '../engine-not-running-error.ts';
import { EngineUnreachableError } from '../remote-engine-errors.ts';
import { colorsFor, formatBytes, formatClock, statusText, type Colors } from '../render.ts';
import { jsonWithEscapedControls, terminalSafe, type SafeText } from '../terminal-safe.ts';

interface TailOptions extends ClientOptions {
  endpoint?: string;
  status?: LogStatus;
}

type LogSummary = ApiSchemas['LogSummary'];

export function registerTail(program: Command, io: CliIO, run: RunAction): void {
  withClientOptions(
    program
      .command('tail')
      .description('Print deliveries live as they arrive, until Ctrl+C (reconnects when the engine restarts)')
      .option('--endpoint <id>', 'only this endpoint')
      .addOption(new Option('--status <status>', `only ${LOG_STATUSES.join(' or ')}`).choices(LOG_STATUSES)),
  )
    .addHelpText('after', '\nWith --json, each delivery is one JSON object (a log summary) per line.')
    .action((opts: TailOptions) => run(() => tail(opts, io)));
}

export async function tail(opts: TailOptions, io: CliIO, signal?: AbortSignal): Promise<number> {
  const status = opts.status;
  const c = colorsFor(io);
  const safe = terminalSafe(io.isTTY);
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  signal?.addEventListener('abort', onSignal, { once: true });
  let announced = false;
  try {
    await followEvents<EngineEventShape>({
      signal: stop.signal,
      connect: () => connect(opts, io),
      // Between an engine's stop and its restart there is no runtime.json, or no answer at its URL: wait for it.
      isRetriable: (e) => e instanceof EngineNotRunningError || e instanceof EngineUnreachableError,
      onConnected: (api) => {
        if (announced) return;
        announced = true;
        // stderr, so stdout carries only deliveries (one line each) for pipes.
        io.err(
          `Tailing deliveries from ${api.baseUrl}${opts.endpoint ? ` for ${opts.endpoint}` : ''}; Ctrl+C to stop.`,
        );
      },
      onStatus: (m) => io.err(c.dim(m)),
      onEvent: (e) => {
        if (e.event !== 'log.created') return;
        const log = e.data;
        if (opts.endpoint !== undefined && log.endpointId !== opts.endpoint) return;
        if (status !== undefined && log.status !== status) return;
        io.out(opts.json ? jsonWithEscapedControls(JSON.stringify(log)) : tailLine(log, c, safe));
      },
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return EXIT.ok;
}

export function tailLine(l: LogSummary, c: Colors, safe: SafeText): string {
  const reason = l.verification.reason ? ` ${c.dim(l.verification.reason)}` : '';
  return `${c.dim(formatClock(l.receivedAt))}  ${l.id}  ${l.endpointId}  ${c.bold(safe(l.method))} ${safe(l.path)}  ${statusText(l.status, c)}${reason}  ${formatBytes(l.size)}`;
}
