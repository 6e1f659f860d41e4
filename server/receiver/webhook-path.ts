import { ValidationError } from '../errors/app-errors.ts';
import type { QueryObject } from '../logs/log-types.ts';

export interface WebhookTarget {
  endpointId: string;
  /** The path below the endpoint, starting with `/`; `/` when there is none. */
  path: string;
  query: QueryObject;
}

/**
 * Splits `/webhook/<id>[/<sub-path>][?query]`; null when the URL is not of that
 * form. The sub-path is kept exactly as sent (never decoded: this is an
 * inspector); an endpoint id that is not valid percent-encoding is a 400.
 */
export function parseWebhookUrl(url: string): WebhookTarget | null {
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  if (!pathname.startsWith('/webhook/')) return null;
  const rest = pathname.slice('/webhook/'.length);
  const slash = rest.indexOf('/');
  const endpointId = slash === -1 ? rest : rest.slice(0, slash);
  if (endpointId === '') return null;
  const path = slash === -1 ? '/' : rest.slice(slash) || '/';
  return { endpointId: decodeId(endpointId), path, query: parseQuery(q === -1 ? '' : url.slice(q + 1)) };
}

/** Repeated keys become arrays, in order. No prototype: a key named `__proto__` is just a key. */
export function parseQuery(search: string): QueryObject {
  const out = Object.create(null) as QueryObject;
  for (const [k, v] of new URLSearchParams(search)) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev, v];
  }
  return out;
}

function decodeId(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new ValidationError(
      `The endpoint id in the path ("${s.slice(0, 100)}") is not valid percent-encoding.`,
      { field: 'endpointId' },
      'INVALID_PATH',
    );
  }
}
