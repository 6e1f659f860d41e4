import { Option, type Command } from 'commander';
import type { ApiSchemas } from '../../api-client/api-client.ts';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, type CliIO } from '../cli-output.ts';
import { httpUrlArg } from '../option-parsers.ts';
import { colorsFor, formatDateTime, printJson, renderTable, statusText, type Colors } from '../render.ts';
import { terminalSafe, type SafeText } from '../terminal-safe.ts';

interface DiagnoseOptions extends ClientOptions {
  target?: string;
}

export function registerDiagnose(program: Command, io: CliIO, run: RunAction): void {
  withClientOptions(
    program
      .command('diagnose')
      .description(
        'Check a delivery end to end: verification now, the destination (DNS, connect, HTTP), recent replays, a cURL to resend it',
      )
      .argument('<logId>', 'log id (log_...)')
      .addOption(
        new Option(
          '--target <url>',
          'destination to check (default: the forward URL, else the last replay target)',
        ).argParser(httpUrlArg),
      ),
  ).action((logId: string, opts: DiagnoseOptions) => run(() => diagnose(logId, opts, io)));
}

async function diagnose(logId: string, opts: DiagnoseOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const d = await api.get('/api/cli/diagnose/{logId}', {
    params: { path: { logId }, query: { target: opts.target } },
  });
  if (opts.json) {
    printJson(io, d);
    return EXIT.ok;
  }
  const c = colorsFor(io);
  const safe = terminalSafe(io.isTTY);
  const l = d.log;
  io.out(c.bold('Delivery'));
  io.out(
    renderTable(
      null,
      [
        ['id', l.id],
        ['endpoint', l.endpointId],
        ['received', formatDateTime(l.receivedAt)],
        ['request', safe(`${l.method} ${l.path}`)],
        ['status', statusText(l.status, c)],
      ],
      c,
    ),
  );

  io.out('');
  io.out(c.bold('Verification'));
  const stored = d.verification.stored;
  const rows = [['when it arrived', verdict(stored.result, stored.reason, stored.detail, c, safe)]];
  const now = d.verification.now;
  rows.push([
    'now',
    now
      ? verdict(now.result, now.reason, now.detail, c, safe) +
        (now.matchedSecret === 'previous' ? c.yellow(' (matches the PREVIOUS secret)') : '')
      : c.dim('endpoint deleted: cannot recompute'),
  ]);
  io.out(renderTable(null, rows, c));

  io.out('');
  io.out(c.bold('Destination'));
  if (!d.destination) {
    io.out(
      c.dim('No destination to check: pass --target URL, or set a forward URL on the endpoint, or replay it once.'),
    );
  } else {
    const dest = d.destination;
    io.out(
      `${safe(dest.url)} ${c.dim(`(from ${dest.source === 'query' ? '--target' : dest.source === 'forward' ? 'the forward URL' : 'the last replay'})`)}`,
    );
    const httpNote = dest.http.status !== null ? `HTTP ${dest.http.status} to ${dest.http.method ?? 'HEAD'}` : '';
    io.out(
      renderTable(
        ['CHECK', 'RESULT', 'TIME', 'DETAIL'],
        [
          ['dns', ...step(dest.dns, c, safe, dest.dns.addresses.join(', '))],
          ['connect', ...step(dest.connect, c, safe, '')],
          ['http', ...step(dest.http, c, safe, httpNote)],
        ],
        c,
      ),
    );
  }

  io.out('');
  io.out(c.bold('Recent replays'));
  if (d.recentReplays.length === 0) io.out(c.dim('None yet.'));
  else
    io.out(
      renderTable(
        ['TIME', 'ID', 'TRIGGER', 'TARGET', 'STATUS', 'MS', 'ERROR'],
        d.recentReplays.map((r) => [
          formatDateTime(r.createdAt),
          r.id,
          r.trigger,
          safe(r.targetUrl),
          r.status === null ? c.red('-') : r.status < 400 ? c.green(String(r.status)) : c.red(String(r.status)),
          String(r.responseTime),
          r.error ? safe(`${r.error.code}: ${r.error.message}`) : '',
        ]),
        c,
      ),
    );

  io.out('');
  io.out(c.bold('Resend it with cURL'));
  io.out(safe(d.reconstruction.curl.trimEnd()));
  return EXIT.ok;
}

function verdict(result: string, reason: string | null, detail: string | null, c: Colors, safe: SafeText): string {
  if (result === 'valid') return c.green('valid');
  if (result === 'skipped') return c.dim('skipped (no signature check)');
  return `${c.red('invalid')} (${reason ?? 'unknown'})${detail ? `: ${safe(detail)}` : ''}`;
}

/** One check of the destination (dns, connect, http). */
type ProbeStep = Pick<NonNullable<ApiSchemas['Diagnosis']['destination']>['dns'], 'ok' | 'ms' | 'error'>;

function step(s: ProbeStep, c: Colors, safe: SafeText, ok: string): string[] {
  const status = s.ok ? c.green('ok') : s.ms === null ? c.dim('skipped') : c.red('failed');
  return [status, s.ms === null ? '-' : `${s.ms} ms`, safe(s.ok ? ok : (s.error ?? ''))];
}
