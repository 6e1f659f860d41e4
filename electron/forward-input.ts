import type { Checked } from './engine-choice.ts';
import { localTarget } from './local-target.ts';

/** An endpoint id as the engine makes them (server/support/ids.ts `opaque('ep')`). */
const ENDPOINT_ID = /^ep_[0-9a-z]{1,100}$/;
/** A one-time sign-in code as `POST /api/session/codes` answers it (session-schemas.ts takes at most 200). */
const SIGN_IN_CODE = /^[A-Za-z0-9_-]{1,200}$/;

/** One endpoint's "Forward from this computer", as chosen and kept in desktop.json. */
export interface ForwardChoice {
  endpointId: string;
  /** Where its deliveries go, on this computer (local-target.ts); each one's sub-path and query are joined below. */
  targetUrl: string;
  /** Forwarding while the team server is shown; off keeps the target for the next start. */
  on: boolean;
}

export interface StartForwardInput {
  endpointId: string;
  targetUrl: string;
  /** From the page's own `POST /api/session/codes`: the main process trades it for its own token. */
  signInCode: string;
}

export function parseEndpointId(value: unknown): Checked<string> {
  return typeof value === 'string' && ENDPOINT_ID.test(value)
    ? { ok: true, value }
    : { ok: false, error: 'endpointId must be an endpoint id (ep_...).' };
}

/** A target on this computer (local-target.ts), normalised as the URL parser writes it. */
export function parseForwardTarget(value: unknown): Checked<string> {
  if (typeof value !== 'string' || value.trim() === '')
    return { ok: false, error: 'Enter the URL on this computer to forward to, e.g. http://localhost:3000/webhooks.' };
  const target = localTarget(value.trim());
  return target.ok ? { ok: true, value: target.value.href } : target;
}

/** `startForwardFromThisComputer`'s input: an endpoint id, a target on this computer, a sign-in code. */
export function parseStartForward(input: unknown): Checked<StartForwardInput> {
  const r = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const endpointId = parseEndpointId(r.endpointId);
  if (!endpointId.ok) return endpointId;
  const targetUrl = parseForwardTarget(r.targetUrl);
  if (!targetUrl.ok) return targetUrl;
  if (typeof r.signInCode !== 'string' || !SIGN_IN_CODE.test(r.signInCode))
    return { ok: false, error: 'signInCode must be a one-time sign-in code from POST /api/session/codes.' };
  return { ok: true, value: { endpointId: endpointId.value, targetUrl: targetUrl.value, signInCode: r.signInCode } };
}

/** `stopForwardFromThisComputer`'s input: the endpoint id. */
export function parseStopForward(input: unknown): Checked<string> {
  return parseEndpointId(
    typeof input === 'object' && input !== null ? (input as { endpointId?: unknown }).endpointId : undefined,
  );
}

/** The choices kept for one team server in desktop.json; anything malformed is left out (one per endpoint). */
export function parseForwardChoices(raw: unknown): ForwardChoice[] {
  if (!Array.isArray(raw)) return [];
  const choices = new Map<string, ForwardChoice>();
  for (const item of raw as unknown[]) {
    const r = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const endpointId = parseEndpointId(r.endpointId);
    const targetUrl = parseForwardTarget(r.targetUrl);
    if (endpointId.ok && targetUrl.ok && typeof r.on === 'boolean')
      choices.set(endpointId.value, { endpointId: endpointId.value, targetUrl: targetUrl.value, on: r.on });
  }
  return [...choices.values()];
}
