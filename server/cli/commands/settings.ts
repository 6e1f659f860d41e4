import type { Command } from 'commander';
import type { ApiData } from '../../api-client/api-client.ts';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, UsageError, type CliIO } from '../cli-output.ts';
import { colorsFor, printJson, renderTable } from '../render.ts';
import { terminalSafe } from '../terminal-safe.ts';

type Settings = ApiData<'/api/settings', 'get'>;

/** What `set` accepts, with the form of its value. */
const KEYS: Record<string, 'text' | 'whole' | 'nullable'> = {
  'tunnel.host': 'text',
  'tunnel.subdomain': 'nullable',
  'retention.maxLogsPerAccount': 'whole',
  'retention.maxBodyBytesPerAccount': 'whole',
  'rateLimit.perSecond': 'whole',
  'rateLimit.burst': 'whole',
  'llm.url': 'text',
  'llm.model': 'text',
  'llm.apiKey': 'nullable',
  llm: 'text',
};

export function registerSettings(program: Command, io: CliIO, run: RunAction): void {
  const settings = program
    .command('settings')
    .description('Engine-wide settings: tunnel, retention, rate limit, LLM, ports (and where each value comes from)');
  withClientOptions(settings.command('get', { isDefault: true }).description('Show the settings')).action(
    (opts: ClientOptions) => run(() => show(opts, io)),
  );
  withClientOptions(
    settings
      .command('set')
      .summary('Change settings (owner account only), saved to config.json and applied at once')
      .description(
        'Change settings (owner account only): saved to config.json and applied at once. ' +
          `Keys: ${Object.keys(KEYS).join(', ')}. An empty value clears tunnel.subdomain and llm.apiKey; llm=off turns the LLM off.`,
      )
      .argument('<key=value...>', 'one or more settings, e.g. rateLimit.perSecond=50'),
  ).action((pairs: string[], opts: ClientOptions) => run(() => set(pairs, opts, io)));
}

async function show(opts: ClientOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  print(await api.get('/api/settings'), opts, io);
  return EXIT.ok;
}

async function set(pairs: string[], opts: ClientOptions, io: CliIO): Promise<number> {
  const body = bodyOf(pairs);
  const api = await connect(opts, io);
  if (body.llm && typeof body.llm === 'object') {
    // The URL and model go together: the one not given keeps its current value.
    const current = (await api.get('/api/settings')).llm;
    const llm = body.llm as Record<string, unknown>;
    llm.url ??= current?.url ?? '';
    llm.model ??= current?.model ?? '';
  }
  const saved = await api.patch('/api/settings', { body });
  if (!opts.json) io.out(`Saved to ${saved.configFile} and applied.`);
  print(saved, opts, io);
  return EXIT.ok;
}

/** `a.b=value` pairs as the PATCH body; values are sent as typed (numbers as numbers) for the engine to check. */
function bodyOf(pairs: string[]): Record<string, unknown> {
  const body: Record<string, Record<string, unknown> | null> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq) : '';
    const kind = KEYS[key];
    if (!kind) throw new UsageError(`"${pair}" is not key=value with a known key (${Object.keys(KEYS).join(', ')}).`);
    const raw = pair.slice(eq + 1);
    if (key === 'llm') {
      if (raw !== 'off')
        throw new UsageError(`llm takes only "off" (got "${raw}"); set llm.url and llm.model instead.`);
      body.llm = null;
      continue;
    }
    const [group, name] = key.split('.') as [string, string];
    const value =
      kind === 'whole' && /^-?\d+$/.test(raw) ? Number(raw) : kind === 'nullable' && raw === '' ? null : raw;
    if (body[group] === null) throw new UsageError('llm=off cannot be combined with other llm keys.');
    body[group] = { ...body[group], [name]: value };
  }
  return body;
}

function print(s: Settings, opts: ClientOptions, io: CliIO): void {
  if (opts.json) {
    printJson(io, s);
    return;
  }
  const c = colorsFor(io);
  const safe = terminalSafe(io.isTTY);
  const source = (name: keyof Settings['sources']): string => {
    const src = s.sources[name];
    return src.from === 'default' ? c.dim('default') : safe(`${src.from} ${src.name ?? ''}`.trim());
  };
  const rows: string[][] = [
    ['tunnel.host', safe(s.tunnel.host), source('tunnel.host')],
    [
      'tunnel.subdomain',
      s.tunnel.subdomain === null ? c.dim('(remembered)') : safe(s.tunnel.subdomain),
      source('tunnel.subdomain'),
    ],
    ['retention.maxLogsPerAccount', String(s.retention.maxLogsPerAccount), source('retention.maxLogsPerAccount')],
    [
      'retention.maxBodyBytesPerAccount',
      String(s.retention.maxBodyBytesPerAccount),
      source('retention.maxBodyBytesPerAccount'),
    ],
    ['rateLimit.perSecond', String(s.rateLimit.perSecond), source('rateLimit.perSecond')],
    ['rateLimit.burst', String(s.rateLimit.burst), source('rateLimit.burst')],
    ['llm.url', s.llm ? safe(s.llm.url) : c.dim('(off)'), source('llm.url')],
    ['llm.model', s.llm ? safe(s.llm.model) : c.dim('(off)'), source('llm.model')],
    ['llm.apiKey', s.llm?.apiKeySet ? '(set)' : c.dim('(none)'), source('llm.apiKey')],
    ['ports.api', `${s.ports.api.port} (restart: ${s.ports.api.flag}, ${s.ports.api.env})`, source('ports.api')],
    [
      'ports.receiver',
      `${s.ports.receiver.port} (restart: ${s.ports.receiver.flag}, ${s.ports.receiver.env})`,
      source('ports.receiver'),
    ],
  ];
  io.out(renderTable(['SETTING', 'VALUE', 'FROM'], rows, c));
  if (!s.canEdit) io.out(c.dim('Only the owner account of this install may change these.'));
}
