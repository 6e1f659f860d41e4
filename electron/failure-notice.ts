import type { EngineEvent } from '../server/events/event-bus.ts';
import { markBidiControls } from '../server/support/bidi-controls.ts';

/** A native notification to show: its text and the delivery a click opens. */
export interface FailureNotice {
  title: string;
  body: string;
  logId: string;
}

export interface NoticeContext {
  /** The "Notify on failed deliveries" setting. */
  enabled: boolean;
  /** The window is shown and focused: the user sees the delivery arrive in the list. */
  windowFocused: boolean;
  /** When the last notification was shown (ms), or null. */
  lastShownAt: number | null;
  now: number;
}

/** At most one notification per this interval: a burst of failures is one notice, the list has the rest. */
export const NOTICE_INTERVAL_MS = 10_000;

/**
 * Whether a live event deserves a notification, and its text: a delivery that
 * was stored as failed (the receiver refused it: a bad signature, an inactive
 * endpoint, a body too large), with the setting on, while the user is not
 * looking at the window, and not within NOTICE_INTERVAL_MS of the last one.
 */
export function failureNotice(event: EngineEvent, ctx: NoticeContext): FailureNotice | null {
  if (event.type !== 'log.created' || event.data.status !== 'failed') return null;
  if (!ctx.enabled || ctx.windowFocused) return null;
  if (ctx.lastShownAt !== null && ctx.now - ctx.lastShownAt < NOTICE_INTERVAL_MS) return null;
  const log = event.data;
  // The verifier's sentence, else its reason code in words (`payload_too_large` -> "payload too large").
  const why = log.verification.detail ?? log.verification.reason?.replaceAll('_', ' ') ?? null;
  // `path` is the sub-path after /webhook/<endpointId>: mostly "/", said only when it is more.
  const request = `${log.method} to ${log.endpointId}${log.path === '/' ? '' : log.path}`;
  return {
    title: 'Webhook delivery failed',
    // The path (and a verifier's sentence quoting a header) is the sender's text: a bidi control
    // would reorder the notification, so it shows as a marker such as ⟨U+202E⟩ instead.
    body: markBidiControls(why ? `${request}: ${why}` : request),
    logId: log.id,
  };
}
