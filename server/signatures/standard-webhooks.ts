import { randomUUID } from 'node:crypto';
import { decodeCanonicalBase64 } from './signature-encoding.ts';
import { hmacSha256Key, sameBytes } from './hmac.ts';
import { jsonSample } from './sample-payload.ts';
import { issuedBy } from './secret-rules.ts';
import type { SignatureScheme, TimestampRules } from './signature-scheme.ts';
import { checkTolerance, parseUnixSeconds } from './timestamp-tolerance.ts';
import { headerValue, invalid, valid, type VerificationInput } from './verification.ts';

export const STANDARD_WEBHOOKS_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;
/** Svix, the reference implementation, sends the same scheme under its own brand. */
const SVIX_HEADERS = { id: 'svix-id', timestamp: 'svix-timestamp', signature: 'svix-signature' } as const;

const SECRET_PREFIX = 'whsec_';
// Padded standard base64, exactly what the reference library decodes.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The HMAC key: base64-decode of the secret after an optional `whsec_`; null when not valid base64 or empty. */
export function standardWebhooksKey(secret: string): Buffer | null {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (encoded.length === 0 || !BASE64.test(encoded)) return null;
  const key = Buffer.from(encoded, 'base64');
  return key.length > 0 ? key : null;
}

export interface ParsedStandardSignatures {
  /** Decoded v1 (HMAC-SHA256) signatures. */
  v1: Buffer[];
  /** Versions seen other than v1 (e.g. v1a, asymmetric), for the detail sentence. */
  otherVersions: string[];
}

/**
 * A space-separated list of `<version>,<base64>`; only v1 entries that are the
 * canonical base64 of 32 bytes count. The reference library compares the base64
 * text, so a value that decodes to the same bytes through different trailing
 * bits is no signature there, and none here.
 */
export function parseStandardSignatures(value: string): ParsedStandardSignatures {
  const v1: Buffer[] = [];
  const otherVersions: string[] = [];
  for (const entry of value.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma === -1) continue;
    const version = entry.slice(0, comma);
    const encoded = entry.slice(comma + 1);
    if (version !== 'v1') {
      if (version.length > 0 && version.length <= 10) otherVersions.push(version);
      continue;
    }
    const sig = decodeCanonicalBase64(encoded);
    if (sig) v1.push(sig);
  }
  return { v1, otherVersions };
}

/** HMAC-SHA256 of `{id}.{timestamp}.{raw body}` with the decoded key. */
export function standardWebhooksSignature(
  key: Buffer,
  messageId: string,
  timestampSeconds: number,
  body: Buffer,
): Buffer {
  return hmacSha256Key(key, `${messageId}.${timestampSeconds}.`, body);
}

export function standardWebhooksSignatureHeader(
  key: Buffer,
  messageId: string,
  timestampSeconds: number,
  body: Buffer,
): string {
  return `v1,${standardWebhooksSignature(key, messageId, timestampSeconds, body).toString('base64')}`;
}

/** The webhook-* headers, or svix-* when no webhook-* header is present at all. */
function pickHeaders(headers: VerificationInput['headers']): {
  names: typeof STANDARD_WEBHOOKS_HEADERS | typeof SVIX_HEADERS;
  id?: string;
  timestamp?: string;
  signature?: string;
} {
  const read = (names: typeof STANDARD_WEBHOOKS_HEADERS | typeof SVIX_HEADERS) => ({
    names,
    id: headerValue(headers, names.id),
    timestamp: headerValue(headers, names.timestamp),
    signature: headerValue(headers, names.signature),
  });
  const standard = read(STANDARD_WEBHOOKS_HEADERS);
  if (standard.id !== undefined || standard.timestamp !== undefined || standard.signature !== undefined)
    return standard;
  const svix = read(SVIX_HEADERS);
  return svix.id !== undefined || svix.timestamp !== undefined || svix.signature !== undefined ? svix : standard;
}

const TIMESTAMP: TimestampRules = {
  read: (headers) => {
    const v = headerValue(headers, STANDARD_WEBHOOKS_HEADERS.timestamp) ?? headerValue(headers, SVIX_HEADERS.timestamp);
    return v === undefined ? null : parseUnixSeconds(v);
  },
  // The specification and its reference library refuse a timestamp too old or too new.
  future: true,
};

const SECRET_FORMAT =
  'webhookSecret for standard_webhooks must be whsec_<base64> or plain base64 (padded, decoding to at least 1 byte), as the sender shows it.';

/**
 * Standard Webhooks (and Svix, its reference implementation): `v1,<base64>` entries
 * over `{id}.{timestamp}.{body}`, keyed with the base64-decoded secret after `whsec_`.
 */
export const standardWebhooksScheme: SignatureScheme<'standard_webhooks'> = {
  id: 'standard_webhooks',
  headers: {
    writes: [STANDARD_WEBHOOKS_HEADERS.id, STANDARD_WEBHOOKS_HEADERS.timestamp, STANDARD_WEBHOOKS_HEADERS.signature],
    reads: [...Object.values(STANDARD_WEBHOOKS_HEADERS), ...Object.values(SVIX_HEADERS)],
    signature: [STANDARD_WEBHOOKS_HEADERS.signature, SVIX_HEADERS.signature],
  },
  customSignatureHeader: false,
  secret: {
    required: true,
    // A secret no key can be derived from would make every delivery fail; endpoints refuse it up front.
    problem: (secret) => (standardWebhooksKey(secret) ? null : SECRET_FORMAT),
    notRegenerable: issuedBy('The sending service (its webhook settings show the whsec_ secret)'),
  },
  timestamp: TIMESTAMP,

  verify(input) {
    const { names, id, timestamp: rawTimestamp, signature } = pickHeaders(input.headers);
    const missing = [
      [names.id, id],
      [names.timestamp, rawTimestamp],
      [names.signature, signature],
    ]
      .filter(([, v]) => v === undefined)
      .map(([n]) => n!);
    if (missing.length > 0) {
      return invalid(
        'standard_webhooks',
        'missing_header',
        `The ${missing.join(', ')} header${missing.length > 1 ? 's are' : ' is'} missing; Standard Webhooks needs ${names.id}, ${names.timestamp} and ${names.signature}.`,
      );
    }
    const timestamp = parseUnixSeconds(rawTimestamp!);
    if (timestamp === null) {
      return invalid('standard_webhooks', 'malformed_header', `${names.timestamp} must be Unix seconds (digits only).`);
    }
    const parsed = parseStandardSignatures(signature!);
    if (parsed.v1.length === 0) {
      const seen =
        parsed.otherVersions.length > 0 ? ` (only ${[...new Set(parsed.otherVersions)].join(', ')} came)` : '';
      return invalid(
        'standard_webhooks',
        'malformed_header',
        `${names.signature} must hold at least one v1,<base64 HMAC-SHA256> entry, space-separated${seen}.`,
      );
    }
    if (input.secrets.length === 0)
      return invalid('standard_webhooks', 'missing_secret', 'The endpoint has no signing secret.');

    // Signature before time, so a wrong secret is reported as such even on an old delivery.
    let matched: 'current' | 'previous' | null = null;
    let decodable = 0;
    for (const secret of input.secrets) {
      const key = standardWebhooksKey(secret.value);
      if (!key) continue;
      decodable++;
      const expected = standardWebhooksSignature(key, id!, timestamp, input.rawBody);
      if (parsed.v1.some((sig) => sameBytes(sig, expected))) {
        matched = secret.kind;
        break;
      }
    }
    if (decodable === 0) {
      return invalid(
        'standard_webhooks',
        'missing_secret',
        "The endpoint's secret is not whsec_<base64> or base64, so no key can be derived from it.",
      );
    }
    if (!matched) {
      return invalid(
        'standard_webhooks',
        'no_matching_signature',
        `None of the ${parsed.v1.length} v1 signature(s) matches an HMAC-SHA256 of "{id}.{timestamp}.{body}" with the endpoint's secret.`,
      );
    }
    return checkTolerance('standard_webhooks', input, timestamp, TIMESTAMP) ?? valid('standard_webhooks', matched);
  },

  sign: ({ body, secret, nowMs, messageId }) => {
    const key = standardWebhooksKey(secret);
    // Endpoints refuse such a secret on create, so this only guards against stored data from elsewhere.
    if (!key)
      throw new Error('standard_webhooks secret is not whsec_<base64> or base64; nothing can be signed with it.');
    const id = messageId ?? `msg_${randomUUID().replace(/-/g, '')}`;
    const timestamp = Math.floor(nowMs / 1000);
    return [
      [STANDARD_WEBHOOKS_HEADERS.id, id],
      [STANDARD_WEBHOOKS_HEADERS.timestamp, String(timestamp)],
      [STANDARD_WEBHOOKS_HEADERS.signature, standardWebhooksSignatureHeader(key, id, timestamp, body)],
    ];
  },

  samplePayload: ({ endpointId, nowMs }) =>
    jsonSample({
      type: 'hookscope.test',
      timestamp: new Date(nowMs).toISOString(),
      data: { endpointId, message: 'A signed test webhook from Hookscope.' },
    }),
};
