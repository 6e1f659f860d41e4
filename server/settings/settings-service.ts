import { isDeepStrictEqual } from 'node:util';
import type { AccountContext } from '../auth/account-context.ts';
import { isOwner } from '../auth/owner.ts';
import { ConfigFileSchema, type LlmConfig } from '../config/config.ts';
import { SETTING_NAMES, SETTING_ORIGINS, valueAt, type SettingName } from '../config/setting-origins.ts';
import { ConflictError, ForbiddenError } from '../errors/app-errors.ts';
import type { JsonObject } from './config-file.ts';
import type { EditableSettings, LiveSettings } from './live-settings.ts';
import type { SettingsDocument } from './settings-document.ts';
import type { SettingsChanged, SettingsUpdate, SettingsView } from './settings-schemas.ts';

export interface SettingsServiceDeps {
  settings: LiveSettings;
  /** config.json, or the database a team server's instances share (settings-document.ts). */
  file: SettingsDocument;
  /** A team server on PostgreSQL: the tunnel is refused there, so its settings cannot change. */
  database: boolean;
  /** The tunnel service: a running tunnel reconnects with new settings. */
  tunnel: { reconfigure(settings: EditableSettings['tunnel']): Promise<unknown> };
  /** Every account, to tell each that the engine-wide settings changed. */
  accounts: { ids(): string[] };
  /** The engine's event bus, whose event map (server/events/event-map.ts) checks this signature. */
  events: { broadcast: (type: 'settings.changed', data: SettingsChanged, accountIds: Iterable<string>) => void };
  /** The account that may change these settings (`owner` in config). */
  owner: string;
}

/** One setting a PATCH asks for: its name and the value config.json gets. */
interface Change {
  name: SettingName;
  value: unknown;
  /** Equal to what a flag or variable sets: written only to keep the LLM's url and model together in the file. */
  moot?: boolean;
}

/**
 * The engine-wide settings the Settings screen shows and changes: it reads the
 * running values (LiveSettings) and where each came from; a change is checked,
 * saved to config.json, then applied to the running engine. Any account may
 * read; only the install's owner may change them, since they affect everyone.
 */
export class SettingsService {
  private ports = { api: 0, receiver: 0 };
  /** Saves run one after another: each reads the file the previous one wrote. */
  private saving: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: SettingsServiceDeps) {}

  /** The listeners' ports, once they are bound (0 asks the OS for a free one). */
  listening(at: { apiUrl: string; receiverUrl: string }): void {
    this.ports = { api: Number(new URL(at.apiUrl).port), receiver: Number(new URL(at.receiverUrl).port) };
  }

  view(account: AccountContext): SettingsView {
    const { settings } = this.deps;
    const v = settings.values;
    const port = (name: 'ports.api' | 'ports.receiver', value: number) => {
      const o = SETTING_ORIGINS[name];
      return { port: value, flag: o.flag.name, env: o.env, configKey: o.file.join('.') };
    };
    return {
      tunnel: { ...v.tunnel },
      retention: { ...v.retention },
      rateLimit: { ...v.rateLimit },
      llm: v.llm ? { url: v.llm.url, model: v.llm.model, apiKeySet: Boolean(v.llm.apiKey) } : null,
      ports: { api: port('ports.api', this.ports.api), receiver: port('ports.receiver', this.ports.receiver) },
      sources: Object.fromEntries(
        SETTING_NAMES.map((n) => [n, settings.sourceOf(n) ?? { from: 'default', name: null }]),
      ) as SettingsView['sources'],
      canEdit: isOwner(account, this.deps.owner),
      configFile: this.deps.file.path,
    };
  }

  /**
   * Saves the changes to config.json and applies them now. A setting a flag or
   * an environment variable sets cannot change here (it would win again at the
   * next start): asking for another value is 409, the same value is a no-op.
   */
  async update(account: AccountContext, patch: SettingsUpdate): Promise<SettingsView> {
    if (!isOwner(account, this.deps.owner)) {
      throw new ForbiddenError(
        `Only the owner account of this install ("${this.deps.owner}", set with --owner) may change engine-wide settings; other accounts may read them.`,
      );
    }
    const run = this.saving.then(() => this.save(patch));
    this.saving = run.catch(() => undefined);
    await run;
    return this.view(account);
  }

  /**
   * Applies what another instance saved in the shared database: `read` answers
   * the saved document, or null when nothing changed since the last call. It
   * runs in turn with this instance's saves, so an older document never
   * replaces the values a save here has just applied.
   */
  async adopt(read: () => Promise<JsonObject | null>): Promise<void> {
    const run = this.saving.then(async () => {
      const document = await read();
      if (document) await this.adoptDocument(document);
    });
    this.saving = run.catch(() => undefined);
    await run;
  }

  private async save(patch: SettingsUpdate): Promise<void> {
    const requested = changesOf(patch);
    if (this.deps.database) refuseTunnel(requested);
    const current = this.deps.settings.values;
    const changes = this.effective(requested, current);
    if (changes.length === 0) return;

    const next = await this.deps.file.change((file) => {
      const next = structuredClone(file);
      for (const c of changes) setAt(next, SETTING_ORIGINS[c.name].file, c.value);
      // The whole file must still start the engine; a failure here is in content the user wrote by hand.
      const checked = ConfigFileSchema.safeParse(next);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        throw new ConflictError(
          `${this.deps.file.path} was not changed: ${issue.path.map(String).join('.') || '(top level)'}: ${issue.message} Fix the file by hand, then save again.`,
          'CONFIG_FILE_INVALID',
          { path: this.deps.file.path },
        );
      }
      return next;
    });
    await this.apply(current, next, changes);
  }

  /** The saved document's values, where no flag or variable wins, become the running ones. */
  private async adoptDocument(document: JsonObject): Promise<void> {
    const current = this.deps.settings.values;
    const overridden = (name: SettingName) => {
      const from = this.deps.settings.sourceOf(name)?.from;
      return from === 'flag' || from === 'env';
    };
    // The LLM goes whole: a URL or model a variable sets keeps the running one as it is.
    const llmByVariable = overridden('llm.url') || overridden('llm.model');
    const changes: Change[] = [];
    for (const name of SHARED_SETTINGS) {
      if (overridden(name) || (llmByVariable && name.startsWith('llm.'))) continue;
      const value = valueAt(document, SETTING_ORIGINS[name].file);
      if (value !== undefined) changes.push({ name, value });
    }
    // `remediation.llm: null` is a saved "LLM off": it has no url to read above.
    if (!llmByVariable && valueAt(document, ['remediation', 'llm']) === null)
      changes.push({ name: 'llm.url', value: null });
    const values = this.applied(current, document, changes);
    if (isDeepStrictEqual(values, current)) return;
    await this.apply(
      current,
      document,
      changes.filter((c) => !isDeepStrictEqual(runningValue(values, c.name), runningValue(current, c.name))),
      values,
    );
  }

  /** Makes the saved changes the running values and tells every account. */
  private async apply(
    current: EditableSettings,
    saved: JsonObject,
    changes: Change[],
    values?: EditableSettings,
  ): Promise<void> {
    const next = values ?? this.applied(current, saved, changes);
    this.deps.settings.replace(
      next,
      changes.map((c) => ({ name: c.name, fileKey: SETTING_ORIGINS[c.name].file.join('.') })),
    );
    if (changes.some((c) => c.name.startsWith('tunnel.'))) await this.deps.tunnel.reconfigure(next.tunnel);
    this.deps.events.broadcast(
      'settings.changed',
      { changed: changes.filter((c) => !c.moot).map((c) => c.name) },
      this.deps.accounts.ids(),
    );
  }

  /** Drops the changes a flag or variable makes moot (same value), refuses the ones it would undo. */
  private effective(changes: Change[], current: EditableSettings): Change[] {
    const out: Change[] = [];
    for (const c of changes) {
      const source = this.deps.settings.sourceOf(c.name);
      if (source?.from !== 'flag' && source?.from !== 'env') {
        out.push(c);
        continue;
      }
      if (c.value === runningValue(current, c.name)) {
        // config.json holds the LLM's url and model as a pair: the overridden half goes along, unchanged.
        if (c.name === 'llm.url' || c.name === 'llm.model') out.push({ ...c, moot: true });
        continue;
      }
      const by = source.from === 'flag' ? `the flag ${source.name}` : `the environment variable ${source.name}`;
      throw new ConflictError(
        `${c.name} is set by ${by}, which wins over config.json: change it there (and restart the engine) instead.`,
        'SETTING_OVERRIDDEN',
        { field: c.name, source },
      );
    }
    return out.every((c) => c.moot) ? [] : out;
  }

  /** The running values after the change; an LLM change also takes the file's other LLM fields (its key, timeout). */
  private applied(current: EditableSettings, file: JsonObject, changes: Change[]): EditableSettings {
    const changed = new Set(changes.map((c) => c.name));
    const pick = <T>(name: SettingName, was: T): T =>
      changed.has(name) ? (changes.find((c) => c.name === name)!.value as T) : was;
    const values: EditableSettings = {
      tunnel: {
        host: pick('tunnel.host', current.tunnel.host),
        subdomain: pick('tunnel.subdomain', current.tunnel.subdomain),
      },
      retention: {
        maxLogsPerAccount: pick('retention.maxLogsPerAccount', current.retention.maxLogsPerAccount),
        maxBodyBytesPerAccount: pick('retention.maxBodyBytesPerAccount', current.retention.maxBodyBytesPerAccount),
      },
      rateLimit: {
        perSecond: pick('rateLimit.perSecond', current.rateLimit.perSecond),
        burst: pick('rateLimit.burst', current.rateLimit.burst),
      },
      llm: current.llm,
    };
    if (changes.some((c) => c.name.startsWith('llm.'))) values.llm = this.llmFrom(file, current.llm);
    return values;
  }

  private llmFrom(file: JsonObject, current: LlmConfig | null): LlmConfig | null {
    const saved = valueAt(file, ['remediation', 'llm']) as Partial<LlmConfig> | null | undefined;
    if (!saved?.url || !saved.model) return null;
    const { url, model } = saved;
    // A variable's key wins over the file's, as at start-up; a url or model a variable sets was equal (see effective).
    const apiKey = this.deps.settings.envApiKey ?? saved.apiKey;
    const timeoutMs = saved.timeoutMs ?? current?.timeoutMs;
    return { url, model, ...(apiKey ? { apiKey } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
  }
}

/** What instances on one database share: every setting Settings changes but the tunnel's (refused there). */
const SHARED_SETTINGS: readonly SettingName[] = [
  'retention.maxLogsPerAccount',
  'retention.maxBodyBytesPerAccount',
  'rateLimit.perSecond',
  'rateLimit.burst',
  'llm.url',
  'llm.model',
  'llm.apiKey',
];

/** With a database the tunnel is refused at start (refuseTunnelWithDatabase): its settings would do nothing. */
function refuseTunnel(changes: readonly Change[]): void {
  const tunnel = changes.find((c) => c.name.startsWith('tunnel.'));
  if (tunnel) {
    throw new ConflictError(
      `${tunnel.name} cannot be changed on a team server on PostgreSQL: the tunnel is not available with --database ` +
        '(reach the server through your reverse proxy and --public-url instead).',
      'TUNNEL_UNAVAILABLE',
      { field: tunnel.name },
    );
  }
}

/** The PATCH body as one change per setting. The LLM's url and model go together; null turns it off. */
function changesOf(patch: SettingsUpdate): Change[] {
  const out: Change[] = [];
  const add = (name: SettingName, value: unknown): void => {
    if (value !== undefined) out.push({ name, value });
  };
  add('tunnel.host', patch.tunnel?.host);
  add('tunnel.subdomain', patch.tunnel?.subdomain);
  add('retention.maxLogsPerAccount', patch.retention?.maxLogsPerAccount);
  add('retention.maxBodyBytesPerAccount', patch.retention?.maxBodyBytesPerAccount);
  add('rateLimit.perSecond', patch.rateLimit?.perSecond);
  add('rateLimit.burst', patch.rateLimit?.burst);
  if (patch.llm === null) {
    add('llm.url', null);
  } else if (patch.llm) {
    add('llm.url', patch.llm.url);
    add('llm.model', patch.llm.model);
    add('llm.apiKey', patch.llm.apiKey);
  }
  return out;
}

function runningValue(v: EditableSettings, name: SettingName): unknown {
  switch (name) {
    case 'llm.url':
      return v.llm?.url ?? null;
    case 'llm.model':
      return v.llm?.model ?? null;
    case 'llm.apiKey':
      return v.llm?.apiKey ?? null;
    case 'rateLimit.perSecond':
      return v.rateLimit.perSecond;
    case 'rateLimit.burst':
      return v.rateLimit.burst;
    default:
      return valueAt(v, name.split('.'));
  }
}

/** Sets a key path in a JSON object, creating the objects on the way; `llm.url: null` turns the whole LLM off. */
function setAt(target: JsonObject, path: readonly string[], value: unknown): void {
  if (path.join('.') === 'remediation.llm.url' && value === null) {
    setAt(target, ['remediation', 'llm'], null);
    return;
  }
  let node = target;
  for (const key of path.slice(0, -1)) {
    const child = node[key];
    if (typeof child !== 'object' || child === null || Array.isArray(child)) node[key] = {};
    node = node[key] as JsonObject;
  }
  const last = path[path.length - 1]!;
  if (value === null && path[path.length - 1] === 'apiKey') delete node[last];
  else node[last] = value;
}
