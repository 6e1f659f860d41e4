import { Option, type Command } from 'commander';
import type { ApiSchemas } from '../../api-client/api-client.ts';
import { LOG_STATUSES, type LogStatus } from '../../api-client/shared.ts';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, type CliIO } from '../cli-output.ts';
import { intArg } from '../option-parsers.ts';
import { registerLogsManage } from './logs-manage.ts';
import { headerText } from '../../support/header-text.ts';
import { colorsFor, formatBytes, formatDateTime, printJson, renderTable, statusText, type Colors } from '../render.ts';
import { terminalSafe, type SafeText } from '../terminal-safe.ts';

interface ListOptions extends ClientOptions {
  endpoint?: string;
  status?: LogStatus;
  search?: string;
  limit?: number;
  offset?: number;
  pinned?: boolean;
  unpinned?: boolean;
}

interface ShowOptions extends ClientOptions {
  bodyOnly?: boolean;
}

export function registerLogs(program: Command, io: CliIO, run: RunAction): void {
  const logs = program
    .command('logs')
    .description('List captured deliveries, show one with its headers and body, pin, delete or clear them');

  withClientOptions(
    logs
      .command('list', { isDefault: true })
      .description('List logs, newest first (the default)')
      .option('--endpoint <id>', 'only this endpoint')
      .addOption(new Option('--status <status>', `only ${LOG_STATUSES.join(' or ')}`).choices(LOG_STATUSES))
      .option('--search <text>', 'text in the body, headers or path')
      .option('--limit <n>', 'page size, 1 to 200 (default 50)', intArg(1, 200))
      .option('--offset <n>', 'skip this many (default 0)', intArg(0, 100_000_000))
      .option('--pinned', 'only pinned deliveries')
      .addOption(new Option('--unpinned', 'only deliveries that are not pinned').conflicts('pinned')),
  ).action((opts: ListOptions) => run(() => list(opts, io)));

  withClientOptions(
    logs
      .command('show')
      .description('Show one delivery: request line, verification, headers and body')
      .argument('<logId>', 'log id (log_...)')
      .option('--body-only', 'print only the body, exactly the stored bytes (binary too), even on a terminal'),
  ).action((logId: string, opts: ShowOptions) => run(() => show(logId, opts, io)));

  registerLogsManage(logs, io, run);
}

async function list(opts: ListOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const page = await api.get('/api/webhooks/logs', {
    params: {
      query: {
        endpointId: opts.endpoint,
        status: opts.status,
        search: opts.search,
        limit: opts.limit?.toString(),
        offset: opts.offset?.toString(),
        pinned: opts.pinned ? 'true' : opts.unpinned ? 'false' : undefined,
      },
    },
  });
  if (opts.json) {
    printJson(io, page);
    return EXIT.ok;
  }
  if (page.logs.length === 0) {
    io.out(page.total === 0 ? 'No deliveries match.' : `No logs at offset ${page.offset} (${page.total} in total).`);
    return EXIT.ok;
  }
  const c = colorsFor(io);
  const safe = terminalSafe(io.isTTY);
  io.out(
    renderTable(
      ['TIME', 'ID', 'ENDPOINT', 'METHOD', 'PATH', 'STATUS', 'REASON', 'SIZE'],
      page.logs.map((l) => logRow(l, c, safe)),
      c,
    ),
  );
  const shown = `${page.offset + 1}-${page.offset + page.logs.length} of ${page.total}`;
  io.out(c.dim(page.hasMore ? `${shown}; next page: --offset ${page.offset + page.logs.length}` : shown));
  return EXIT.ok;
}

export function logRow(l: ApiSchemas['LogSummary'], c: Colors, safe: SafeText): string[] {
  return [
    formatDateTime(l.receivedAt),
    l.id,
    l.endpointId,
    safe(l.method),
    safe(l.path),
    statusText(l.status, c),
    l.verification.reason ?? c.dim('-'),
    formatBytes(l.size),
  ];
}

async function show(logId: string, opts: ShowOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const log = await api.get('/api/webhooks/logs/{logId}', { params: { path: { logId } } });
  if (opts.json) {
    printJson(io, log);
    return EXIT.ok;
  }
  if (opts.bodyOnly) {
    // For scripts (`> file`, `| jq`): the stored bytes and nothing else, terminal or not.
    if (io.write) io.write(Buffer.from(log.body, log.bodyEncoding));
    else io.out(log.body);
    return EXIT.ok;
  }
  const c = colorsFor(io);
  const safe = terminalSafe(io.isTTY);
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(log.query)) for (const one of Array.isArray(v) ? v : [v]) query.append(k, one);
  const qs = query.toString();
  const v = log.verification;
  const verdict =
    v.result === 'invalid'
      ? `${statusText(log.status, c)} (${v.scheme}: ${v.reason ?? 'invalid'})`
      : `${statusText(log.status, c)} (${v.scheme}: ${v.result})`;
  const fields: string[][] = [
    [c.bold('id'), log.id],
    [c.bold('endpoint'), log.endpointId],
    [c.bold('received'), formatDateTime(log.receivedAt)],
    [c.bold('request'), safe(`${log.method} ${log.path}${qs ? `?${qs}` : ''}`)],
    [c.bold('source'), log.sourceIp ?? c.dim('-')],
    [c.bold('size'), `${formatBytes(log.size)}${log.contentType ? ` (${safe(log.contentType)})` : ''}`],
    [c.bold('status'), verdict],
  ];
  if (log.pinned) fields.push([c.bold('pinned'), 'yes (retention never evicts it)']);
  if (v.detail) fields.push([c.bold('detail'), safe(v.detail)]);
  io.out(renderTable(null, fields, c));
  io.out('');
  io.out(c.bold(`Headers (${log.rawHeaders.length})`));
  // headerText: a UTF-8 value as the text it is (Node hands values over one char per byte).
  io.out(
    renderTable(
      ['NAME', 'VALUE'],
      log.rawHeaders.map(([name, value]) => [safe(name), safe(headerText(value))]),
      c,
    ),
  );
  io.out('');
  const notes: string[] = [];
  if (log.bodyEncoding === 'base64') notes.push('binary, shown as base64');
  if (log.truncated)
    notes.push(`only the first ${formatBytes(log.storedSize)} of ${formatBytes(log.size)} were stored`);
  const body = safe(log.body);
  if (body !== log.body) notes.push('control characters shown escaped; --body-only prints the exact bytes');
  io.out(c.bold(`Body${notes.length ? ` (${notes.join('; ')})` : ''}`));
  io.out(log.body.length === 0 ? c.dim('(empty)') : body);
  return EXIT.ok;
}
