import { decodeLowerHex } from './signature-encoding.ts';
import { hmacSha256, sameBytes } from './signing.ts';
import { checkTolerance } from './timestamp-tolerance.ts';
import {
  headerValue,
  invalid,
  valid,
  type VerificationInput,
  type VerificationResult,
  type Verifier,
} from './verifier-types.ts';

export const SLACK_SIGNATURE_HEADER = 'X-Slack-Signature';
export const SLACK_TIMESTAMP_HEADER = 'X-Slack-Request-Timestamp';

/**
 * `v0=<64 lower-case hex>`, as Slack sends it; Slack's documented check compares
 * the header text (hmac.compare_digest), so upper-case hex is refused.
 */
export function parseSlackSignature(value: string): Buffer | null {
  const v = value.trim();
  return v.startsWith('v0=') ? decodeLowerHex(v.slice('v0='.length)) : null;
}

/** Unix seconds, digits only. */
export function parseSlackTimestamp(value: string): number | null {
  const v = value.trim();
  return /^\d{1,12}$/.test(v) ? Number(v) : null;
}

/** Slack signs `v0:{timestamp header as sent}:{raw body}`. */
export function slackSignature(secret: string, timestamp: string, body: Buffer): Buffer {
  return hmacSha256(secret, `v0:${timestamp}:`, body);
}

export const slackVerifier: Verifier = {
  scheme: 'slack',
  verify(input: VerificationInput): VerificationResult {
    const header = headerValue(input.headers, SLACK_SIGNATURE_HEADER);
    if (header === undefined)
      return invalid('slack', 'missing_header', `The ${SLACK_SIGNATURE_HEADER} header is missing.`);
    const rawTimestamp = headerValue(input.headers, SLACK_TIMESTAMP_HEADER);
    if (rawTimestamp === undefined) {
      return invalid(
        'slack',
        'missing_header',
        `The ${SLACK_TIMESTAMP_HEADER} header is missing; Slack signs it with the body.`,
      );
    }
    const signature = parseSlackSignature(header);
    if (!signature)
      return invalid(
        'slack',
        'malformed_header',
        `${SLACK_SIGNATURE_HEADER} must look like v0=<64 lower-case hex characters>, as Slack sends it.`,
      );
    const timestamp = parseSlackTimestamp(rawTimestamp);
    if (timestamp === null)
      return invalid('slack', 'malformed_header', `${SLACK_TIMESTAMP_HEADER} must be Unix seconds (digits only).`);
    if (input.secrets.length === 0) return invalid('slack', 'missing_secret', 'The endpoint has no signing secret.');

    // Signature before time, so a wrong secret is reported as such even on an old delivery.
    const signedTimestamp = rawTimestamp.trim();
    const match = input.secrets.find((s) =>
      sameBytes(signature, slackSignature(s.value, signedTimestamp, input.rawBody)),
    );
    if (!match) {
      return invalid(
        'slack',
        'no_matching_signature',
        `The ${SLACK_SIGNATURE_HEADER} signature does not match an HMAC-SHA256 of "v0:{timestamp}:{body}" with the endpoint's signing secret.`,
      );
    }
    // Slack documents the check as |now - timestamp| > 5 minutes: old and future alike.
    return checkTolerance('slack', input, timestamp, { future: true }) ?? valid('slack', match.kind);
  },
};
