import type { IncomingMessage, ServerResponse } from 'node:http';
import { MethodNotAllowedError } from '../errors/app-errors.ts';
import { mapError, sendData, sendError } from '../http/envelope.ts';
import type { RawHandler } from '../http/listeners.ts';
import { requestContext, type ReportFault } from '../support/logger-faults.ts';
import { renderErrorPage, renderSharePage, SHARE_PAGE_CSP } from './share-html.ts';
import type { OpenedShare, ShareService } from './share-service.ts';
import { sharedLogView } from './share-views.ts';

/** Every answer of a share link, page or JSON, success or error, carries these. */
const SHARE_HEADERS = {
  'content-security-policy': SHARE_PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  vary: 'Accept',
};

/**
 * JSON when the client asks for it and does not ask for HTML (a browser's
 * Accept names text/html), or with `?format=json`: the page links there, since
 * a link cannot set Accept.
 */
function wantsJson(req: IncomingMessage): boolean {
  const q = (req.url ?? '').indexOf('?');
  if (q !== -1 && new URLSearchParams((req.url ?? '').slice(q + 1)).get('format') === 'json') return true;
  const accept = req.headers.accept ?? '';
  return /application\/json/i.test(accept) && !/text\/html/i.test(accept);
}

function sendHtml(res: ServerResponse, status: number, html: string, extra: Record<string, string> = {}): void {
  const payload = Buffer.from(html, 'utf8');
  res.writeHead(status, {
    ...SHARE_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'content-length': payload.length,
    ...extra,
  });
  // Node leaves the body out of an answer to HEAD.
  res.end(payload);
}

/**
 * `GET|HEAD /share/<token>` on both listeners: the read-only page, or the log
 * detail as JSON. Plain node:http like the receiver, since it is served on the
 * public listener where Express does not run.
 */
export function sharePageHandler(shares: ShareService, onError: ReportFault): RawHandler {
  return (req: IncomingMessage, res: ServerResponse): void => {
    req.resume();
    const json = wantsJson(req);
    const report = (e: unknown): string => onError(e, requestContext(req, 'share'));
    // JSON errors are the API's envelope; the page shows the same status and message, and both carry the error's headers.
    const fail = (err: unknown): void => {
      if (json) return sendError(res, err, { report, headers: SHARE_HEADERS });
      const mapped = mapError(err, report);
      sendHtml(res, mapped.status, renderErrorPage(mapped.status, mapped.body.error.message), mapped.headers);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      fail(new MethodNotAllowedError('Share links are read-only: use GET or HEAD.', 'GET, HEAD'));
      return;
    }
    const path = (req.url ?? '').split('?')[0]!;
    const token = path.slice('/share/'.length);
    shares
      .open(token)
      .then((opened: OpenedShare) => {
        const shown = sharedLogView(opened);
        if (json) {
          const data = {
            ...shown.log,
            share: { expiresAt: shown.expiresAt, redacted: shown.redacted, pathRedacted: shown.pathRedacted },
          };
          sendData(res, data, { headers: SHARE_HEADERS });
        } else {
          sendHtml(res, 200, renderSharePage(shown));
        }
      })
      .catch(fail);
  };
}
