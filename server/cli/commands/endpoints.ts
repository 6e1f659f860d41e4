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

interface SetSecretOptions extends ClientOptions {
  secret?: string;
}

type Endpoint = ApiSchemas['Endpoint'];

const byId = (endpointId: string) => ({ params: { path: { endpointId } } });

export function registerEndpoints(program: Command, io: CliIO, run: RunAction): void {
  const endpoints = program
    .command('endpoints')
    .description('List, create, show, delete, enable and disable endpoints, and set their signing secret');

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
      .option('--secret <secret>', 'signing secret (required for every type but none)')
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

  withClientOptions(
    endpoints
      .command('set-secret')
      .summary("Set a signed endpoint's secret to the one its sender issued, keeping its URL")
      .description(
        "Replace a signed endpoint's secret with the one its sender issued (a secret rolled at Stripe, " +
          'or one entered wrong), keeping its URL; the previous secret verifies for the grace period (24 h by default)',
      )
      .argument('<id>', 'endpoint id (ep_...)')
      .option('--secret <secret>', 'the new secret (it stays in shell history: prefer standard input)'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Without --secret the secret is read from standard input: piped (everything up to the end, one line),',
        'or typed or pasted at the prompt, where it is not shown. It is never printed.',
        '',
        'Examples:',
        '  pbpaste | hookscope endpoints set-secret ep_123',
        '  hookscope endpoints set-secret ep_123 < stripe-secret.txt',
        '  hookscope endpoints set-secret ep_123',
        '',
        'Exit code 0 when the secret is set (or already was that one), 1 when the engine refuses it',
        '(unknown endpoint, a secret the scheme cannot use, an endpoint of type none), 2 when none was given.',
      ].join('\n'),
    )
    .action((id: string, opts: SetSecretOptions) => run(() => setSecret(id, opts, io)));

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

async function setSecret(id: string, opts: SetSecretOptions, io: CliIO): Promise<number> {
  // Connected first: a stopped engine is reported before anyone pastes a secret.
  const api = await connect(opts, io);
  const webhookSecret = opts.secret ?? (await secretFromStdin(io));
  const data = await api.put('/api/endpoints/{endpointId}/secret', { ...byId(id), body: { webhookSecret } });
  if (opts.json) {
    printJson(io, data);
    return EXIT.ok;
  }
  const c = colorsFor(io);
  io.out(
    `${c.green('Secret set')} for endpoint ${c.bold(data.id)}: deliveries signed with it verify now; the URL is unchanged.`,
  );
  if (data.previousSecretExpiresAt !== null) {
    io.out(`The previous secret is still accepted until ${formatDateTime(data.previousSecretExpiresAt)}.`);
  }
  return EXIT.ok;
}

async function secretFromStdin(io: CliIO): Promise<string> {
  if (!io.stdin) throw new UsageError('--secret is required here (no standard input to read it from).');
  // Loaded on use: --help and the other commands need no readline.
  const { readSecret } = await import('../secret-input.ts');
  return readSecret(io.stdin(), io.err);
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
    ...(e.previousSecretExpiresAt !== null
      ? [[c.bold('previous secret'), `accepted until ${formatDateTime(e.previousSecretExpiresAt)}`]]
      : []),
    [c.bold('created'), formatDateTime(e.createdAt)],
    [c.bold('updated'), formatDateTime(e.updatedAt)],
  ];
}

const activeText = (active: boolean, c: Colors): string => (active ? c.green('yes') : c.yellow('no'));
