import { createHash } from 'node:crypto';
import type { LogDetail } from '../logs/logs-schemas.ts';
import { headerText } from '../support/header-text.ts';
import { jsonShape } from '../support/json-shape.ts';
import type { SharedLogView } from './share-views.ts';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const toEntity = (c: string): string => ENTITIES[c]!;

/** Every short value that reaches the page goes through this: text and attribute safe. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, toEntity);

/**
 * The body, inside <pre>: element text needs only `&`, `<` and `>` escaped
 * (quotes matter in attributes alone), so a JSON body, full of quotes, does not
 * grow by five bytes per quote. One regex pass, no intermediate copies.
 */
export const escapeHtmlText = (s: string): string => s.replace(/[&<>]/g, toEntity);

/**
 * Bodies larger than this are shown as received, without pretty-printing: a
 * 10 MiB JSON body pretty-printed became 26 MB of HTML and held the event loop
 * for 0.74 s per view (the receiver's /healthz shares it).
 */
export const PRETTY_PRINT_MAX_BYTES = 256 * 1024;

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:0;padding:24px;max-width:1100px;color:#1d2330;background:#f7f8fa}
@media (prefers-color-scheme:dark){body{color:#e6e8ee;background:#161a22}.meta{color:#9aa3b5!important}table,pre{background:#1f2430!important}th,td{border-color:#333a48!important}}
h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:24px 0 8px}.meta{color:#6b7385}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600}.ok{background:#d7f5e1;color:#11622f}.bad{background:#fde0e0;color:#8a1c1c}.skip{background:#e7e9ee;color:#3b4252}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;vertical-align:top;padding:4px 8px;border-bottom:1px solid #e3e6ec;font-family:ui-monospace,monospace;word-break:break-all}
th{width:28%;font-weight:600}pre{background:#fff;padding:12px;overflow:auto;white-space:pre-wrap;word-break:break-all;font-family:ui-monospace,monospace}`;

/** The page runs no script and loads nothing: the CSP allows only this one style block, by hash. */
export const SHARE_PAGE_CSP = [
  "default-src 'none'",
  `style-src '${'sha256-' + createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function page(title: string, inner: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>${inner}</body></html>
`;
}

const rows = (pairs: [string, string][]): string =>
  pairs.length === 0
    ? '<p class="meta">None.</p>'
    : `<table>${pairs.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`;

function queryPairs(q: LogDetail['query']): [string, string][] {
  return Object.entries(q).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one): [string, string] => [k, one]));
}

function bodyBlock(d: LogDetail): string {
  if (d.body === '') return '<p class="meta">No body.</p>';
  if (d.storedSize > PRETTY_PRINT_MAX_BYTES) {
    const what = d.bodyEncoding === 'base64' ? 'binary, shown as base64' : 'shown as received, without formatting';
    return `<p class="meta">Large body (${d.storedSize} bytes): ${what}. The whole delivery as JSON: <a href="?format=json">JSON view</a> (or request this link with <code>Accept: application/json</code>); its owner can export it with <code>hookscope export ${escapeHtml(d.id)} --format json|har|curl|http</code>.</p><pre>${escapeHtmlText(d.body)}</pre>`;
  }
  if (d.bodyEncoding === 'base64') {
    return `<p class="meta">Binary body (${d.storedSize} bytes), shown as base64.</p><pre>${escapeHtmlText(d.body)}</pre>`;
  }
  let shown = d.body;
  const looksJson = /json/i.test(d.contentType ?? '') || /^\s*[[{]/.test(d.body);
  if (looksJson && prettyIsCheap(d.body)) {
    try {
      shown = JSON.stringify(JSON.parse(d.body), null, 2);
    } catch {
      // Not JSON after all: show it as received.
    }
  }
  return `<pre>${escapeHtmlText(shown)}</pre>`;
}

/**
 * Pretty-printing stays cheap: under the size cap a body can still nest deep
 * enough to overflow JSON.stringify, or a few hundred levels of indentation
 * around many small items can turn 256 KiB into tens of megabytes.
 */
const PRETTY_MAX_DEPTH = 256;
const PRETTY_MAX_CHARS = (bodyChars: number): number => Math.max(4 * bodyChars, 1024 * 1024);
function prettyIsCheap(body: string): boolean {
  const shape = jsonShape(body, PRETTY_MAX_DEPTH);
  return shape.depth <= PRETTY_MAX_DEPTH && shape.prettyChars <= PRETTY_MAX_CHARS(body.length);
}

function verdict(v: LogDetail['verification']): string {
  const cls = v.result === 'valid' ? 'ok' : v.result === 'invalid' ? 'bad' : 'skip';
  const why = v.result === 'invalid' ? ` (${v.reason ?? 'invalid'}${v.detail ? `: ${v.detail}` : ''})` : '';
  return `<span class="badge ${cls}">${escapeHtml(v.result)}</span> ${escapeHtml(v.scheme)}${escapeHtml(why)}`;
}

/** The read-only page of a shared delivery. */
export function renderSharePage(s: SharedLogView): string {
  const d = s.log;
  const truncated = d.truncated
    ? `<p class="meta">Only the first ${d.storedSize} of ${d.size} bytes were kept (over the size limit).</p>`
    : '';
  const inner = `<h1>${escapeHtml(d.method)} ${escapeHtml(d.path)}</h1>
<p class="meta">Received ${escapeHtml(d.receivedAt)} &middot; ${d.size} bytes &middot; link expires ${escapeHtml(s.expiresAt)}${
    s.redacted ? ' &middot; credentials and signatures redacted' : ''
  }${s.pathRedacted ? ' &middot; path redacted after its first segment' : ''}</p>
<h2>Verification</h2><p>${verdict(d.verification)}</p>
<h2>Query</h2>${rows(queryPairs(d.query))}
<h2>Headers</h2>${rows(d.rawHeaders.map(([n, v]): [string, string] => [n, headerText(v)]))}
<h2>Body${d.contentType ? ` <span class="meta">${escapeHtml(d.contentType)}</span>` : ''}</h2>${truncated}${bodyBlock(d)}
<p class="meta">Shared from Hookscope; read-only.</p>`;
  return page(`${d.method} ${d.path} - shared webhook`, inner);
}

export function renderErrorPage(status: number, message: string): string {
  const title = status === 410 ? 'Share link expired' : status === 405 ? 'Method not allowed' : 'Share link not found';
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
