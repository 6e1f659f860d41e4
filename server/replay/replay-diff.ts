import { isUtf8 } from 'node:buffer';
import { isoTime } from '../support/clock.ts';
import { headerObject } from '../support/headers.ts';
import { lineDiff, parseJson } from '../support/line-diff.ts';
import type { ReplayDiff } from './replay-schemas.ts';
import type { StoredReplay } from './replay-types.ts';

type ReplaySide = ReplayDiff['a'];

/** Status, header and body differences of two responses (b compared with a). */
export function diffReplays(a: StoredReplay, b: StoredReplay): ReplayDiff {
  const statusChanged = a.status !== b.status;
  const headers = diffHeaders(a, b);
  const body = diffBodies(a, b);
  const headersChanged = headers.added.length + headers.removed.length + headers.changed.length > 0;
  return {
    a: side(a),
    b: side(b),
    identical: !statusChanged && !headersChanged && !body.changed,
    status: { a: a.status, b: b.status, changed: statusChanged },
    headers,
    body,
  };
}

function side(r: StoredReplay): ReplaySide {
  return {
    id: r.id,
    targetUrl: r.targetUrl,
    method: r.method,
    status: r.status,
    error: r.error,
    createdAt: isoTime(r.createdAt),
    truncated: r.responseTruncated,
  };
}

function flatHeaders(r: StoredReplay): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(headerObject(r.responseHeaders))) {
    out.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return out;
}

function diffHeaders(a: StoredReplay, b: StoredReplay): ReplayDiff['headers'] {
  const ha = flatHeaders(a);
  const hb = flatHeaders(b);
  const out: ReplayDiff['headers'] = { added: [], removed: [], changed: [] };
  for (const [name, value] of hb) {
    const before = ha.get(name);
    if (before === undefined) out.added.push({ name, value });
    else if (before !== value) out.changed.push({ name, a: before, b: value });
  }
  for (const [name, value] of ha) if (!hb.has(name)) out.removed.push({ name, value });
  return out;
}

function diffBodies(a: StoredReplay, b: StoredReplay): ReplayDiff['body'] {
  const sizes = { a: a.responseBody.length, b: b.responseBody.length };
  const changed = !a.responseBody.equals(b.responseBody);
  if (!isUtf8(a.responseBody) || !isUtf8(b.responseBody)) {
    return { changed, format: 'binary', patch: '', changes: [], sizes };
  }
  let left = a.responseBody.toString('utf8');
  let right = b.responseBody.toString('utf8');
  const ja = parseJson(left);
  const jb = parseJson(right);
  const json = ja.ok && jb.ok;
  if (json) {
    // Pretty-printed so a one-line JSON body diffs by member, not as one changed line.
    left = `${JSON.stringify(ja.value, null, 2)}\n`;
    right = `${JSON.stringify(jb.value, null, 2)}\n`;
  }
  const format = json ? 'json' : 'text';
  if (!changed) return { changed, format, patch: '', changes: [], sizes };
  // Unbounded: replay response bodies are capped when stored.
  const { patch, changes } = lineDiff(left, right, { a: a.id, b: b.id })!;
  return { changed, format, patch, changes, sizes };
}
