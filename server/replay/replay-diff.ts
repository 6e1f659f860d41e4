import { isUtf8 } from 'node:buffer';
import { headerObject } from '../support/headers.ts';
import { jsonShape } from '../support/json-shape.ts';
import { lineDiff, parseJson } from '../support/line-diff.ts';
import type { ReplayDiffView } from './replay-schemas.ts';
import type { StoredReplay } from './replay-types.ts';

/** One side of a replay diff: the attempt, createdAt in epoch ms. */
export type ReplaySide = Omit<ReplayDiffView['a'], 'createdAt'> & { createdAt: number };

/** Two replays compared, each side as ReplaySide (replay-views.ts makes the API's form). */
export type ReplayDiff = Omit<ReplayDiffView, 'a' | 'b'> & { a: ReplaySide; b: ReplaySide };

/**
 * When a JSON answer is pretty-printed before diffing. JSON.parse is iterative,
 * but JSON.stringify recurses (about 10,000 levels overflow the stack) and every
 * level indents each line below it: `[[[...]]]` 3,000 deep is 6 KB and prints to
 * 18 MB. A target answers what it likes, so deeper or larger-when-printed answers
 * are diffed as the text they are (format `text`), decided by a scan that never recurses.
 */
const PRETTY_LIMITS = { maxDepth: 256, maxCharsPerByte: 4, minMaxChars: 1024 * 1024 } as const;

function prettyIsCheap(text: string): boolean {
  const shape = jsonShape(text, PRETTY_LIMITS.maxDepth);
  const maxChars = Math.max(PRETTY_LIMITS.maxCharsPerByte * text.length, PRETTY_LIMITS.minMaxChars);
  return shape.depth <= PRETTY_LIMITS.maxDepth && shape.prettyChars <= maxChars;
}

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
    createdAt: r.createdAt,
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
  const ja = prettyIsCheap(left) ? parseJson(left) : { ok: false as const };
  const jb = prettyIsCheap(right) ? parseJson(right) : { ok: false as const };
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
