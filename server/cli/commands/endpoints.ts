import { InvalidArgumentError, type Command } from 'commander';
import type { ApiSchemas } from '../../api-client/api-client.ts';
import {
  parseValidationType,
  requiresSecret,
  VALIDATION_TYPES,
  type ValidationType,
} from '../../endpoints/validation-types.ts';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, UsageError, type CliIO } from '../cli-output.ts';
import { httpUrlArg } from '../option-parsers.ts';
import { colorsFor, formatDateTime, printJson, renderTable, type Colors } from '../render.ts';

interface CreateOptions extends ClientOptions {
  name: string;
  type: ValidationType;
  secret?: string;
  forwardUrl?: string;
  description?: string;
}

type Endpoint = ApiSchemas['Endpoint'];

const byId = (endpointId: string) => ({ params: { path: { endpointId } } });

export function registerEndpoints(program: Command, io: CliIO, run: RunAction): void {
  const endpoints = program
    .command('endpoints')
    .description('List, create, show, delete, enable and disable endpoints');

  withClientOptions(endpoints.command('list', { isDefault: true }).description('List endpoints (the default)')).action(
    (opts: ClientOptions) => run(() => list(opts, io)),
  );

  withClientOptions(
    endpoints
      .command('create')
      .description('Create an endpoint and print its receiving URL')
      .requiredOption('--name <name>', 'display name (1 to 200 characters)')
      .requiredOption(
        '--type <type>',
        `signature check: ${VALIDATION_TYPES.join(', ')} (aliases such as hmac, generic)`,
        validationTypeArg,
      )
      .option('--secret <secret>', 'signing secret (required for stripe and hmac_sha256)')
      .option('--forward-url <url>', 'forward every accepted delivery to this URL', httpUrlArg)
      .option('--description <text>', 'free text'),
  ).action((opts: CreateOptions) => run(() => create(opts, io)));

  withClientOptions(
    endpoints.command('show').description('Show one endpoint').argument('<id>', 'endpoint id (ep_...)'),
  ).action((id: string, opts: ClientOptions) => run(() => show(id, opts, io)));

  withClientOptions(
    endpoints
      .command('delete')
      .description('Delete an endpoint with its logs')
      .argument('<id>', 'endpoint id (ep_...)'),
  ).action((id: string, opts: ClientOptions) => run(() => remove(id, opts, io)));

  for (const [name, active] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    withClientOptions(
      endpoints
        .command(name)
        .description(active ? 'Accept deliveries again' : 'Answer deliveries with 410 and store nothing')
        .argument('<id>', 'endpoint id (ep_...)'),
    ).action((id: string, opts: ClientOptions) => run(() => setActive(id, active, opts, io)));
  }
}

async function list(opts: ClientOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const data = await api.get('/api/endpoints');
  if (opts.json) {
    printJson(io, data);
    return EXIT.ok;
  }
  if (data.endpoints.length === 0) {
    io.out('No endpoints yet. Create one with: hookscope endpoints create --name NAME --type none');
    return EXIT.ok;
  }
  const c = colorsFor(io);
  const rows = data.endpoints.map((e) => [
    e.id,
    e.name,
    e.validationType,
    activeText(e.isActive, c),
    e.url,
    formatDateTime(e.createdAt),
  ]);
  io.out(renderTable(['ID', 'NAME', 'TYPE', 'ACTIVE', 'URL', 'CREATED'], rows, c));
  return EXIT.ok;
}

/** `--type`: a canonical validation type or one of its aliases (matched as the API matches them). */
function validationTypeArg(value: string): ValidationType {
  try {
    return parseValidationType(value);
  } catch {
    throw new InvalidArgumentError(`Allowed choices are ${VALIDATION_TYPES.join(', ')} (or an alias such as hmac).`);
  }
}

async function create(opts: CreateOptions, io: CliIO): Promise<number> {
  const validationType = opts.type;
  if (requiresSecret(validationType) && opts.secret === undefined) {
    throw new UsageError(`--secret is required for --type ${validationType}.`);
  }
  const api = await connect(opts, io);
  const created = await api.post('/api/endpoints', {
    body: {
      name: opts.name,
      validationType,
      webhookSecret: opts.secret,
      forwardUrl: opts.forwardUrl,
      description: opts.description,
    },
  });
  if (opts.json) {
    printJson(io, created);
    return EXIT.ok;
  }
  const c = colorsFor(io);
  io.out(`${c.green('Created')} endpoint ${c.bold(created.id)} (${created.name}, ${created.validationType})`);
  io.out(`Send webhooks to: ${created.url}`);
  return EXIT.ok;
}

async function show(id: string, opts: ClientOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const e = await api.get('/api/endpoints/{endpointId}', byId(id));
  if (opts.json) {
    printJson(io, e);
    return EXIT.ok;
  }
  const c = colorsFor(io);
  io.out(renderTable(null, endpointFields(e, c), c));
  return EXIT.ok;
}

async function remove(id: string, opts: ClientOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const data = await api.delete('/api/endpoints/{endpointId}', byId(id));
  if (opts.json) printJson(io, data);
  else io.out(`Deleted endpoint ${data.id} and its logs.`);
  return EXIT.ok;
}

async function setActive(id: string, isActive: boolean, opts: ClientOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const e = await api.patch('/api/endpoints/{endpointId}', { ...byId(id), body: { isActive } });
  if (opts.json) {
    printJson(io, e);
    return EXIT.ok;
  }
  const c = colorsFor(io);
  io.out(
    e.isActive
      ? `Endpoint ${e.id} is ${c.green('active')}: deliveries are accepted.`
      : `Endpoint ${e.id} is ${c.yellow('inactive')}: deliveries get 410 and nothing is stored.`,
  );
  return EXIT.ok;
}

function endpointFields(e: Endpoint, c: Colors): string[][] {
  const dash = (v: string | number | null): string => (v === null || v === '' ? c.dim('-') : String(v));
  return [
    [c.bold('id'), e.id],
    [c.bold('name'), e.name],
    [c.bold('description'), dash(e.description)],
    [c.bold('type'), e.validationType],
    [c.bold('active'), activeText(e.isActive, c)],
    [c.bold('url'), e.url],
    [c.bold('local url'), e.localUrl],
    [c.bold('public url'), dash(e.publicUrl)],
    [c.bold('forward url'), dash(e.forwardUrl)],
    [c.bold('signature header'), dash(e.signatureHeader)],
    [c.bold('tolerance (s)'), dash(e.toleranceSeconds)],
    [c.bold('secret'), e.hasSecret ? 'set (never shown)' : c.dim('none')],
    [c.bold('created'), formatDateTime(e.createdAt)],
    [c.bold('updated'), formatDateTime(e.updatedAt)],
  ];
}

const activeText = (active: boolean, c: Colors): string => (active ? c.green('yes') : c.yellow('no'));
