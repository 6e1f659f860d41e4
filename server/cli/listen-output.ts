import { formatClock, type Colors } from './render.ts';
import type { SafeText } from './terminal-safe.ts';

/** The delivery a line is about: what the log summary says of it. */
export interface DeliveryRef {
  id: string;
  endpointId: string;
  eventType: string | null;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  receivedAt: string;
}

interface About {
  log: DeliveryRef;
  /** Forwarded by a catch-up (it arrived while the listener was away), not live. */
  catchUp: boolean;
}

/** What `hookscope listen` tells the user: one line each (text or, with --json, one JSON object). */
export type ListenReport =
  | {
      type: 'listening';
      engine: string;
      endpoints: string[];
      /** Every endpoint of the account (those created later too), rather than those named. */
      all: boolean;
      target: string;
      resign: boolean;
    }
  | { type: 'connection'; message: string }
  /** About one endpoint's catch-up: where it starts when the place it kept is gone. */
  | { type: 'notice'; endpointId: string; message: string }
  | (About & { type: 'forwarded'; url: string; status: number; durationMs: number; attempt: number })
  | (About & {
      type: 'retry';
      url: string | null;
      /** The target's 5xx, or null when it did not answer (then `error` says why). */
      status: number | null;
      durationMs: number | null;
      error: string | null;
      attempt: number;
      retryInMs: number;
    })
  /** Not sent, and never will be: the engine cannot build it (sub-path unsafe, body truncated, log gone, signature failed). */
  | (About & { type: 'skipped'; reason: string });

/** `/path?query` as the delivery arrived below its endpoint. */
export function pathWithQuery(log: Pick<DeliveryRef, 'path' | 'query'>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(log.query)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  const search = params.toString();
  return search === '' ? log.path : `${log.path}?${search}`;
}

/** `250 ms`, `2 s`: a wait or a duration for people. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** The first line of an error message, which may quote a target's text. */
export function firstLine(message: string): string {
  return message.split(/\r?\n/, 1)[0] ?? '';
}

function statusColor(status: number, c: Colors): string {
  const s = String(status);
  return status >= 500 ? c.red(s) : status >= 400 ? c.yellow(s) : c.green(s);
}

/** One line for a person; sender text (event type, path, an error quoting the target) goes through `safe`. */
export function listenLine(r: ListenReport, c: Colors, safe: SafeText): string {
  switch (r.type) {
    case 'listening': {
      const ids = r.endpoints.join(', ');
      const which = r.all ? `all of the account's endpoints${ids === '' ? '' : ` (now ${ids})`}` : ids;
      const resign = r.resign ? ", re-signed with each endpoint's secret" : '';
      return `Forwarding deliveries of ${which} from ${r.engine} to ${r.target}${resign}; Ctrl+C to stop.`;
    }
    case 'connection':
      return c.dim(r.message);
    case 'notice':
      return c.yellow(r.message);
    default: {
      const head = `${c.dim(formatClock(r.log.receivedAt))}  ${safe(r.log.eventType ?? '-')}  ${c.bold(safe(r.log.method))} ${safe(pathWithQuery(r.log))}`;
      const caught = r.catchUp ? c.dim('  (caught up)') : '';
      if (r.type === 'forwarded') return `${head}  ${statusColor(r.status, c)}  ${formatMs(r.durationMs)}${caught}`;
      if (r.type === 'skipped') return `${head}  ${c.red('not forwarded:')} ${safe(firstLine(r.reason))}${caught}`;
      const outcome =
        r.status !== null
          ? `${statusColor(r.status, c)}  ${formatMs(r.durationMs ?? 0)}`
          : c.red(safe(firstLine(r.error ?? 'no answer')));
      return `${head}  ${outcome}  ${c.yellow(`(attempt ${r.attempt} failed; retrying in ${formatMs(r.retryInMs)})`)}${caught}`;
    }
  }
}

/** The same report as one flat JSON object (`--json`): `type`, then the delivery's fields, then the outcome's. */
export function listenJson(r: ListenReport): Record<string, unknown> {
  if (r.type === 'listening' || r.type === 'connection' || r.type === 'notice') return { ...r };
  const { log, type, ...rest } = r;
  return {
    type,
    logId: log.id,
    endpointId: log.endpointId,
    eventType: log.eventType,
    method: log.method,
    path: log.path,
    query: log.query,
    receivedAt: log.receivedAt,
    ...rest,
  };
}
