import type { Endpoint } from '../api/client.ts';
import { formatHeaderLines, parseHeaderLines } from './header-lines.ts';

export type CustomResponse = NonNullable<Endpoint['customResponse']>;

/** The limits the engine checks (server/endpoints/custom-response.ts); said here so the form can say them first. */
export const RESPONSE_LIMITS = { minStatus: 200, maxStatus: 599, maxDelayMs: 30_000 } as const;

/** The custom-response fields as typed: text, so a half-typed number is not lost. */
export interface ResponseDraft {
  status: string;
  headers: string;
  body: string;
  delayMs: string;
}

export const EMPTY_DRAFT: ResponseDraft = { status: '', headers: '', body: '', delayMs: '' };

export function draftOf(r: CustomResponse | null): ResponseDraft {
  if (r === null) return EMPTY_DRAFT;
  return {
    status: String(r.status),
    headers: formatHeaderLines(r.headers),
    body: r.body,
    delayMs: r.delayMs === 0 ? '' : String(r.delayMs),
  };
}

export type DraftResult = { ok: true; value: CustomResponse | null } | { ok: false; error: string };

const WHOLE = /^\d+$/;

/**
 * The draft as the engine's `customResponse`: null (the default answer) when no
 * status is given, else the object; or the first thing to fix, in words. The
 * engine checks again (reserved headers, a body on 204...): its 400 is shown too.
 */
export function responseFromDraft(d: ResponseDraft): DraftResult {
  const status = d.status.trim();
  if (status === '') return { ok: true, value: null };
  const { minStatus, maxStatus, maxDelayMs } = RESPONSE_LIMITS;
  if (!WHOLE.test(status) || Number(status) < minStatus || Number(status) > maxStatus) {
    return { ok: false, error: `Status must be a whole number from ${minStatus} to ${maxStatus}.` };
  }
  const delay = d.delayMs.trim();
  if (delay !== '' && (!WHOLE.test(delay) || Number(delay) > maxDelayMs)) {
    return { ok: false, error: `Delay must be a whole number of milliseconds from 0 to ${maxDelayMs}.` };
  }
  const headers = parseHeaderLines(d.headers);
  if (!headers.ok) return headers;
  return {
    ok: true,
    value: {
      status: Number(status),
      headers: headers.headers,
      body: d.body,
      delayMs: delay === '' ? 0 : Number(delay),
    },
  };
}
