import { decodeLowerHex } from './signature-encoding.ts';
import { hmacSha256, sameBytes } from './hmac.ts';
import { hex, jsonSample } from './sample-payload.ts';
import { anySecret, issuedBy } from './secret-rules.ts';
import type { SignatureScheme, TimestampRules } from './signature-scheme.ts';
import { checkTolerance, parseUnixSeconds } from './timestamp-tolerance.ts';
import { headerValue, invalid, valid } from './verification.ts';

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

/** Slack signs `v0:{timestamp header as sent}:{raw body}`. */
export function slackSignature(secret: string, timestamp: string, body: Buffer): Buffer {
  return hmacSha256(secret, `v0:${timestamp}:`, body);
}

const TIMESTAMP: TimestampRules = {
  read: (headers) => {
    const v = headerValue(headers, SLACK_TIMESTAMP_HEADER);
    return v === undefined ? null : parseUnixSeconds(v);
  },
  // Slack documents the check as |now - timestamp| > 5 minutes: old and future alike.
  future: true,
};

/** Slack: `v0=` HMAC-SHA256 of `v0:{timestamp}:{body}` with the app's signing secret. */
export const slackScheme: SignatureScheme<'slack'> = {
  id: 'slack',
  headers: {
    writes: [SLACK_TIMESTAMP_HEADER, SLACK_SIGNATURE_HEADER],
    reads: [SLACK_SIGNATURE_HEADER, SLACK_TIMESTAMP_HEADER],
    signature: [SLACK_SIGNATURE_HEADER],
  },
  customSignatureHeader: false,
  secret: {
    required: true,
    problem: anySecret,
    notRegenerable: issuedBy("Slack (the app's Signing Secret under Basic Information)"),
  },
  timestamp: TIMESTAMP,

  verify(input) {
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
    const timestamp = parseUnixSeconds(rawTimestamp);
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
    return checkTolerance('slack', input, timestamp, TIMESTAMP) ?? valid('slack', match.kind);
  },

  sign: ({ body, secret, nowMs }) => {
    const timestamp = String(Math.floor(nowMs / 1000));
    return [
      [SLACK_TIMESTAMP_HEADER, timestamp],
      [SLACK_SIGNATURE_HEADER, `v0=${slackSignature(secret, timestamp, body).toString('hex')}`],
    ];
  },

  /** An Events API callback (an app mention). */
  samplePayload({ random, nowMs }) {
    const seconds = Math.floor(nowMs / 1000);
    return jsonSample({
      token: 'unused-verification-token',
      team_id: 'T0HOOKSCOPE',
      api_app_id: 'A0HOOKSCOPE',
      event: {
        type: 'app_mention',
        user: 'U0HOOKSCOPE',
        text: '<@U0BOT> a signed test event from Hookscope',
        ts: `${seconds}.000100`,
        channel: 'C0HOOKSCOPE',
        event_ts: `${seconds}.000100`,
      },
      type: 'event_callback',
      event_id: `Ev${hex(random, 5).toUpperCase()}`,
      event_time: seconds,
    });
  },
};
