/**
 * The event a delivery announces (`checkout.session.completed`, `pull_request.opened`,
 * `orders/create`), derived once when it is captured and stored with it, so the list
 * shows and filters it without reading bodies.
 *
 * It is read from the request itself, not from the endpoint's validation type: a
 * GitHub delivery captured by a `none` endpoint still names its event. In order:
 * 1. GitHub's `X-GitHub-Event`, with the body's `action` when there is one
 *    (`pull_request.opened`: the names @octokit/webhooks gives its handlers).
 * 2. Headers that name the event on their own: Shopify's `X-Shopify-Topic`, GitLab's
 *    `X-Gitlab-Event`, Bitbucket's `X-Event-Key`, CloudEvents' `ce-type` (binary mode),
 *    and the generic `X-Event-Type` and `X-Webhook-Event`.
 * 3. The JSON body: Slack's `event_callback` names its inner `event.type`; otherwise a
 *    top-level `type` (Stripe, Standard Webhooks / Svix, Slack's `url_verification`,
 *    structured CloudEvents), `event_type` (PayPal, Paddle) or `event`, when it is a
 *    short string.
 *
 * The body is parsed only when it is JSON (by content type), whole (not cut by a
 * refusal) and at most EVENT_TYPE_BODY_CAP bytes, and only when no header already
 * named the event: the receiver runs this for every delivery.
 */

/** Bodies larger than this are not parsed for their event type (the receiver's hot path). */
export const EVENT_TYPE_BODY_CAP = 256 * 1024;

/** Longer values are not event names (a sentence, a payload) and are not kept. */
export const EVENT_TYPE_MAX_LENGTH = 120;

export interface EventTypeInput {
  /** Lower-case names; a repeated header is an array (its first value counts). */
  headers: Readonly<Record<string, string | string[]>>;
  contentType: string | null;
  body: Buffer;
  /** The body was cut short by a refusal (over the size limit): it is not parsed. */
  truncated: boolean;
}

/** Headers that name the event by themselves, in the order they are looked at (after GitHub's). */
const NAMING_HEADERS = [
  'x-shopify-topic',
  'x-gitlab-event',
  'x-event-key',
  'ce-type',
  'x-event-type',
  'x-webhook-event',
];

/** Top-level body fields that name the event, in the order they are looked at. */
const NAMING_FIELDS = ['type', 'event_type', 'event'];

// application/json, application/vnd.api+json, application/cloudevents+json; charset=...
const JSON_TYPE = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

export function eventTypeOf(d: EventTypeInput): string | null {
  const github = eventName(first(d.headers['x-github-event']));
  if (github !== null) {
    const action = eventName(jsonBody(d)?.action);
    // GitHub sends `payload=` forms too; those show the header's event alone.
    return (action === null ? null : eventName(`${github}.${action}`)) ?? github;
  }
  for (const header of NAMING_HEADERS) {
    const named = eventName(first(d.headers[header]));
    if (named !== null) return named;
  }
  const json = jsonBody(d);
  if (json === null) return null;
  if (json.type === 'event_callback' && isRecord(json.event)) {
    const inner = eventName(json.event.type);
    if (inner !== null) return inner;
  }
  for (const field of NAMING_FIELDS) {
    const named = eventName(json[field]);
    if (named !== null) return named;
  }
  return null;
}

/** A short one-line string, trimmed; anything else (objects, numbers, long or multi-line text) is no name. */
function eventName(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (s.length === 0 || s.length > EVENT_TYPE_MAX_LENGTH || /[\u0000-\u001f\u007f]/.test(s)) return null;
  return s;
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The body as a JSON object, or null when it is not JSON, too large, cut short, or not an object. */
function jsonBody(d: EventTypeInput): Record<string, unknown> | null {
  if (d.truncated || d.body.length === 0 || d.body.length > EVENT_TYPE_BODY_CAP) return null;
  if (d.contentType === null || !JSON_TYPE.test(d.contentType)) return null;
  try {
    const parsed: unknown = JSON.parse(d.body.toString('utf8'));
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
