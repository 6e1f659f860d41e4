import type { ApiSchemas } from '../api/client.ts';
import { ApiError } from '../api/client.ts';

export type Settings = ApiSchemas['Settings'];
export type SettingSource = ApiSchemas['SettingSource'];

/** The fields of the Settings form, by the engine's setting name. */
export type FieldName =
  | 'tunnel.host'
  | 'tunnel.subdomain'
  | 'retention.maxLogsPerAccount'
  | 'retention.maxBodyBytesPerAccount'
  | 'rateLimit.perSecond'
  | 'rateLimit.burst'
  | 'llm.url'
  | 'llm.model';

export interface FieldSpec {
  name: FieldName;
  /** The label, which is also the control's accessible name. */
  label: string;
  kind: 'text' | 'url' | 'whole';
  hint?: string;
}

export interface FieldGroup {
  title: string;
  hint: string;
  fields: FieldSpec[];
}

export const FIELD_GROUPS: FieldGroup[] = [
  {
    title: 'Tunnel',
    hint: 'The localtunnel server that gives your receiver a public URL. A running tunnel reconnects at once.',
    fields: [
      { name: 'tunnel.host', label: 'Tunnel host', kind: 'url' },
      {
        name: 'tunnel.subdomain',
        label: 'Subdomain',
        kind: 'text',
        hint: '4-63 lowercase letters and digits; empty = the one remembered for this host.',
      },
    ],
  },
  {
    title: 'Retention',
    hint: 'Per account; the oldest unpinned deliveries go first. Applies from the next delivery.',
    fields: [
      { name: 'retention.maxLogsPerAccount', label: 'Logs kept per account', kind: 'whole' },
      { name: 'retention.maxBodyBytesPerAccount', label: 'Body bytes kept per account', kind: 'whole' },
    ],
  },
  {
    title: 'Rate limit',
    hint: 'Per endpoint; deliveries over it get 429 and are not stored. 0 turns the limit off.',
    fields: [
      { name: 'rateLimit.perSecond', label: 'Rate limit (deliveries per second)', kind: 'whole' },
      {
        name: 'rateLimit.burst',
        label: 'Burst',
        kind: 'whole',
        hint: 'How many may arrive at once after a quiet spell.',
      },
    ],
  },
  {
    title: 'LLM (optional)',
    hint: 'An OpenAI-compatible server (a local model server, say) that adds prose to analyses. Leave both empty to use the rules alone.',
    fields: [
      { name: 'llm.url', label: 'LLM URL', kind: 'url' },
      { name: 'llm.model', label: 'LLM model', kind: 'text' },
    ],
  },
];

export type FormValues = Record<FieldName, string>;

/** The settings as the form's text boxes show them. */
export function formValues(s: Settings): FormValues {
  return {
    'tunnel.host': s.tunnel.host,
    'tunnel.subdomain': s.tunnel.subdomain ?? '',
    'retention.maxLogsPerAccount': String(s.retention.maxLogsPerAccount),
    'retention.maxBodyBytesPerAccount': String(s.retention.maxBodyBytesPerAccount),
    'rateLimit.perSecond': String(s.rateLimit.perSecond),
    'rateLimit.burst': String(s.rateLimit.burst),
    'llm.url': s.llm?.url ?? '',
    'llm.model': s.llm?.model ?? '',
  };
}

/** A whole number as typed becomes a number; anything else is sent as typed, for the engine to name what is wrong. */
function wholeOrText(text: string): unknown {
  const t = text.trim();
  return /^-?\d+$/.test(t) ? Number(t) : t;
}

/**
 * The `PATCH /api/settings` body for what the user changed (null when nothing
 * did). The engine validates: the form sends what was typed and shows the
 * engine's sentence next to the field, so both always agree on the rules.
 */
export function patchFrom(saved: Settings, draft: Partial<FormValues>): Record<string, unknown> | null {
  const before = formValues(saved);
  const changed = (n: FieldName): boolean => draft[n] !== undefined && draft[n] !== before[n];
  const value = (n: FieldName): string => draft[n] ?? before[n];
  const patch: Record<string, Record<string, unknown> | null> = {};
  const put = (group: string, key: string, v: unknown): void => {
    patch[group] = { ...patch[group], [key]: v };
  };
  if (changed('tunnel.host')) put('tunnel', 'host', value('tunnel.host').trim());
  if (changed('tunnel.subdomain')) put('tunnel', 'subdomain', value('tunnel.subdomain').trim() || null);
  for (const n of [
    'retention.maxLogsPerAccount',
    'retention.maxBodyBytesPerAccount',
    'rateLimit.perSecond',
    'rateLimit.burst',
  ] as const) {
    if (changed(n)) {
      const [group, key] = n.split('.') as [string, string];
      put(group, key, wholeOrText(value(n)));
    }
  }
  if (changed('llm.url') || changed('llm.model')) {
    const url = value('llm.url').trim();
    const model = value('llm.model').trim();
    // Both empty turns the LLM off; otherwise they go together (the engine says which one is missing).
    patch.llm = url === '' && model === '' ? null : { url, model };
  }
  return Object.keys(patch).length === 0 ? null : patch;
}

export interface SaveErrors {
  /** By field: the engine's sentence about it. */
  fields: Partial<Record<FieldName, string>>;
  /** What is not about one field (or the whole message), for the line next to Save. */
  message: string;
}

const FIELD_NAMES = new Set<string>(FIELD_GROUPS.flatMap((g) => g.fields.map((f) => f.name)));

/**
 * A failed save in words, per field where the engine named one: a 400's
 * issues (`{ field, message }`), a 409's `details.field` (a value a flag or
 * variable sets), else the field quoted in the message.
 */
export function saveErrors(err: unknown): SaveErrors {
  if (!(err instanceof ApiError)) return { fields: {}, message: err instanceof Error ? err.message : String(err) };
  const fields: SaveErrors['fields'] = {};
  const details = err.details as { issues?: { field?: unknown; message?: unknown }[]; field?: unknown } | undefined;
  for (const issue of details?.issues ?? []) {
    const field = typeof issue.field === 'string' ? issue.field : '';
    if (FIELD_NAMES.has(field) && typeof issue.message === 'string') fields[field as FieldName] ??= issue.message;
  }
  if (typeof details?.field === 'string' && FIELD_NAMES.has(details.field))
    fields[details.field as FieldName] = err.message;
  if (Object.keys(fields).length === 0) {
    const quoted = /"([\w.]+)"/.exec(err.message)?.[1];
    if (quoted && FIELD_NAMES.has(quoted)) fields[quoted as FieldName] = err.message;
  }
  return { fields, message: err.message };
}

/** A flag or variable sets it: the form shows it read-only and says where to change it. */
export function overriddenBy(source: SettingSource | undefined): string | null {
  if (!source || (source.from !== 'env' && source.from !== 'flag')) return null;
  const what = source.from === 'env' ? 'the environment variable' : 'the flag';
  return `Set by ${what} ${source.name}, which wins over this screen: change it there and restart the engine.`;
}
