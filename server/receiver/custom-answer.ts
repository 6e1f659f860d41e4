import type { ServerResponse } from 'node:http';
import {
  INERT_ANSWER_HEADERS,
  isCookieHeader,
  LOG_ID_HEADER,
  type CustomResponse,
} from '../endpoints/custom-response.ts';

/**
 * Writes an endpoint's custom answer: the engine's inert-content headers, the
 * user's status, headers (in their order and case, repeats kept) and body, then
 * the framing the receiver owns. Not the envelope writer's job (http/envelope.ts):
 * this answer is the user's, not the engine's.
 *
 * Validation refuses cookies; one stored before it did is still never sent. The
 * user's own X-Content-Type-Options is dropped (browsers read only the first
 * value, which must stay nosniff); a Content-Security-Policy of theirs is kept,
 * since browsers enforce every policy sent and ours already allows nothing.
 */
export function writeCustomAnswer(res: ServerResponse, answer: CustomResponse, logId: string): void {
  const body = Buffer.from(answer.body, 'utf8');
  const headers: string[] = INERT_ANSWER_HEADERS.flat();
  for (const { name, value } of answer.headers) {
    if (isCookieHeader(name) || name.toLowerCase() === 'x-content-type-options') continue;
    headers.push(name, value);
  }
  // A 204 and a 304 carry no Content-Length (RFC 9110 section 8.6); validation kept their body empty.
  if (answer.status !== 204 && answer.status !== 304) headers.push('Content-Length', String(body.length));
  headers.push(LOG_ID_HEADER, logId);
  res.writeHead(answer.status, headers);
  res.end(body);
}
