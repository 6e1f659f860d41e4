import { InvalidArgumentError, type Command } from 'commander';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, UsageError, type CliIO } from '../cli-output.ts';
import { colorsFor, formatDateTime, printJson } from '../render.ts';

interface ShareOptions extends ClientOptions {
  hours?: number;
  revoke?: boolean;
  /** Commander's `--no-redact` sets this to false. */
  redact: boolean;
  redactPath?: boolean;
}

export function registerShare(program: Command, io: CliIO, run: RunAction): void {
  withClientOptions(
    program
      .command('share')
      .description('Create a read-only share link for a delivery (replacing its previous link), or revoke it')
      .argument('<logId>', 'log id (log_...)')
      .option('--hours <n>', 'hours until the link expires: more than 0, at most 720 (default 24)', hoursArg)
      .option('--revoke', 'revoke the current link instead')
      .option('--no-redact', 'show credential and signature header values on the shared page')
      .option(
        '--redact-path',
        'hide every path segment after the first (for senders that put a secret in the URL, like Slack)',
      ),
  ).action((logId: string, opts: ShareOptions) => run(() => share(logId, opts, io)));
}

async function share(logId: string, opts: ShareOptions, io: CliIO): Promise<number> {
  if (opts.revoke && opts.hours !== undefined) throw new UsageError('--revoke and --hours cannot be used together.');
  if (opts.revoke && opts.redact === false) throw new UsageError('--revoke and --no-redact cannot be used together.');
  if (opts.revoke && opts.redactPath) throw new UsageError('--revoke and --redact-path cannot be used together.');
  const api = await connect(opts, io);
  const byLog = { params: { path: { logId } } };
  if (opts.revoke) {
    const revoked = await api.delete('/api/webhooks/{logId}/share', byLog);
    if (opts.json) printJson(io, revoked);
    else io.out(`Revoked the share link of ${revoked.logId}; it now answers 404.`);
    return EXIT.ok;
  }
  const link = await api.post('/api/webhooks/{logId}/share', {
    ...byLog,
    body: { redact: opts.redact, redactPath: opts.redactPath === true, expiresInHours: opts.hours },
  });
  if (opts.json) {
    printJson(io, link);
    return EXIT.ok;
  }
  const c = colorsFor(io);
  io.out(link.url);
  io.err(
    c.dim(
      `Expires ${formatDateTime(link.expiresAt)} (in ${link.expiresInHours} h); ${link.redacted ? 'credential and signature headers redacted' : 'NOT redacted'}${link.pathRedacted ? '; path redacted after its first segment' : ''}.`,
    ),
  );
  if (link.localOnly) io.err(c.yellow('The tunnel is offline: this link only works on this machine.'));
  if (link.localOnly || link.browserNotice) {
    if (link.browserNotice) io.err(c.yellow(link.browserNotice));
    io.err(`Or send the delivery itself: hookscope export ${link.logId} --format curl|json|har --out FILE`);
  }
  return EXIT.ok;
}

function hoursArg(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0) || n > 720) {
    throw new InvalidArgumentError('It must be a number of hours greater than 0 and at most 720.');
  }
  return n;
}
