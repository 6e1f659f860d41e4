import type { Command } from 'commander';
import type { ShareView as Share } from '../../share/share-schemas.ts';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, UsageError, type CliIO } from '../cli-output.ts';
import { colorsFor, formatDateTime, printJson } from '../render.ts';

interface ShareOptions extends ClientOptions {
  hours?: string;
  revoke?: boolean;
  /** Commander's `--no-redact` sets this to false. */
  redact: boolean;
}

export function registerShare(program: Command, io: CliIO, run: RunAction): void {
  withClientOptions(
    program
      .command('share')
      .description('Create a read-only share link for a delivery (replacing its previous link), or revoke it')
      .argument('<logId>', 'log id (log_...)')
      .option('--hours <n>', 'hours until the link expires: more than 0, at most 720 (default 24)')
      .option('--revoke', 'revoke the current link instead')
      .option('--no-redact', 'show credential and signature header values on the shared page'),
  ).action((logId: string, opts: ShareOptions) => run(() => share(logId, opts, io)));
}

async function share(logId: string, opts: ShareOptions, io: CliIO): Promise<number> {
  if (opts.revoke && opts.hours !== undefined) throw new UsageError('--revoke and --hours cannot be used together.');
  if (opts.revoke && opts.redact === false) throw new UsageError('--revoke and --no-redact cannot be used together.');
  const hours = opts.hours === undefined ? undefined : parseHours(opts.hours);
  const api = await connect(opts, io);
  const path = `/api/webhooks/${encodeURIComponent(logId)}/share`;
  if (opts.revoke) {
    const revoked = await api.delete<{ logId: string; revoked: true }>(path);
    if (opts.json) printJson(io, revoked);
    else io.out(`Revoked the share link of ${revoked.logId}; it now answers 404.`);
    return EXIT.ok;
  }
  const body: Record<string, unknown> = { redact: opts.redact };
  if (hours !== undefined) body.expiresInHours = hours;
  const link = await api.post<Share>(path, body);
  if (opts.json) {
    printJson(io, link);
    return EXIT.ok;
  }
  const c = colorsFor(io);
  io.out(link.url);
  io.err(
    c.dim(
      `Expires ${formatDateTime(link.expiresAt)} (in ${link.expiresInHours} h); ${link.redacted ? 'credential and signature headers redacted' : 'NOT redacted'}.`,
    ),
  );
  if (link.localOnly) io.err(c.yellow('The tunnel is offline: this link only works on this machine.'));
  if (link.localOnly || link.browserNotice) {
    if (link.browserNotice) io.err(c.yellow(link.browserNotice));
    io.err(`Or send the delivery itself: hookscope export ${link.logId} --format curl|json|har --out FILE`);
  }
  return EXIT.ok;
}

function parseHours(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0) || n > 720) {
    throw new UsageError(`--hours must be a number of hours greater than 0 and at most 720, got "${value}".`);
  }
  return n;
}
