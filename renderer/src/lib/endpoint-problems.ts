import { ApiError } from '../api/client.ts';
import { secretSource } from './endpoint-secrets.ts';
import type { ValidationType } from './validation-types.ts';

/** The boxes of the endpoint forms that a refusal can be about; each shows its own sentence under it. */
export type EndpointField = 'name' | 'description' | 'webhookSecret' | 'forwardUrl' | 'customResponse';

/** Why the engine refused, in the form's words: under one box, or (field null) for the form as a whole. */
export interface FormProblem {
  field: EndpointField | null;
  message: string;
}

export interface ProblemContext {
  validationType: ValidationType;
  /** The values sent, as typed: an empty box and a wrong one are told apart. */
  values: Partial<Record<'name' | 'webhookSecret' | 'forwardUrl', string>>;
}

/** The engine's longest forward URL (server/http/schemas.ts httpUrl). */
const MAX_URL = 2048;

const FIELDS: readonly string[] = ['name', 'description', 'webhookSecret', 'forwardUrl', 'customResponse'];

/** The field a VALIDATION_ERROR names: `details.field`, or the first of `details.issues` (e.g. `customResponse.body`). */
function refusedField(details: unknown): { path: string[]; message: string | null } | null {
  if (typeof details !== 'object' || details === null) return null;
  const d = details as { field?: unknown; issues?: unknown };
  if (typeof d.field === 'string') return { path: d.field.split('.'), message: null };
  const first: unknown = Array.isArray(d.issues) ? d.issues[0] : undefined;
  if (typeof first !== 'object' || first === null) return null;
  const { field, message } = first as { field?: unknown; message?: unknown };
  return typeof field === 'string'
    ? { path: field.split('.'), message: typeof message === 'string' ? message : null }
    : null;
}

const RESPONSE_LABELS: Record<string, string> = {
  status: 'Status',
  headers: 'Response headers',
  body: 'Response body',
  delayMs: 'Delay',
};

/**
 * A custom response refusal. The engine's sentence starts with its own field name
 * ("body must be empty: a 204 answer carries none."): the box's label takes its place.
 * A whole sentence ("\"Content-Length\" cannot be set: …") stays as it is.
 */
function responseSentence(path: string[], message: string): string {
  const [, part = '', index, sub] = path;
  const label =
    part === 'headers' && index !== undefined && sub !== undefined
      ? `Response header ${Number(index) + 1}’s ${sub}`
      : (RESPONSE_LABELS[part] ?? 'The custom response');
  const own = path.at(-1) ?? '';
  return message.startsWith(`${own} `) ? `${label}${message.slice(own.length)}` : message;
}

function secretSentence(ctx: ProblemContext): string {
  if ((ctx.values.webhookSecret ?? '') === '') return `Enter the signing secret: ${secretSource(ctx.validationType)}.`;
  return ctx.validationType === 'standard_webhooks'
    ? 'A Standard Webhooks secret is whsec_ followed by base64, exactly as the sending service shows it.'
    : 'Keep the secret to 1,000 characters or fewer.';
}

/**
 * The engine's refusal as the endpoint forms say it: a 400 naming a field becomes the
 * form's own sentence under that box (never the API's "Invalid request body \"name\"");
 * anything else is one sentence for the whole form.
 */
export function endpointProblem(err: unknown, ctx: ProblemContext): FormProblem {
  if (!(err instanceof ApiError)) return { field: null, message: err instanceof Error ? err.message : String(err) };
  if (err.status === 0) {
    return { field: null, message: 'The engine did not answer, so nothing was saved. Try again once it runs.' };
  }
  const refused = err.code === 'VALIDATION_ERROR' ? refusedField(err.details) : null;
  const field = refused?.path[0] ?? '';
  if (refused === null || !FIELDS.includes(field)) return { field: null, message: err.message };
  switch (field as EndpointField) {
    case 'name':
      return {
        field: 'name',
        message:
          (ctx.values.name ?? '').trim() === ''
            ? 'Give the endpoint a name.'
            : 'Keep the name to 200 characters or fewer.',
      };
    case 'description':
      return { field: 'description', message: 'Keep the description to 2,000 characters or fewer.' };
    case 'forwardUrl':
      return {
        field: 'forwardUrl',
        message:
          (ctx.values.forwardUrl ?? '').trim().length > MAX_URL
            ? 'Keep the address to 2,048 characters or fewer.'
            : 'Enter a full address starting with http:// or https://, such as http://localhost:3000/webhooks.',
      };
    case 'webhookSecret':
      return { field: 'webhookSecret', message: secretSentence(ctx) };
    case 'customResponse':
      return { field: 'customResponse', message: responseSentence(refused.path, refused.message ?? err.message) };
  }
}
