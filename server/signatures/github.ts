import { decodeLowerHex } from './signature-encoding.ts';
import { hmacSha256, sameBytes } from './hmac.ts';
import { digits, jsonSample, uuid } from './sample-payload.ts';
import { anySecret, issuedBy } from './secret-rules.ts';
import type { SignatureScheme } from './signature-scheme.ts';
import { headerValue, invalid, valid } from './verification.ts';

export const GITHUB_SIGNATURE_HEADER = 'X-Hub-Signature-256';
/** Recognised (it says "GitHub" and why nothing verified), never accepted: SHA-1. */
const LEGACY_SHA1_HEADER = 'X-Hub-Signature';

/**
 * `sha256=<64 lower-case hex>`, exactly as GitHub sends it. GitHub's documented
 * check (and @octokit/webhooks-methods) compares the header text, so upper-case
 * hex or `SHA256=` never verifies there and is refused here too.
 */
export function parseGithubSignature(value: string): Buffer | null {
  const v = value.trim();
  return v.startsWith('sha256=') ? decodeLowerHex(v.slice('sha256='.length)) : null;
}

export function githubSignatureHeader(secret: string, body: Buffer): string {
  return `sha256=${hmacSha256(secret, body).toString('hex')}`;
}

/** GitHub: HMAC-SHA256 of the raw body keyed with the secret's UTF-8 bytes; no timestamp. */
export const githubScheme: SignatureScheme<'github'> = {
  id: 'github',
  headers: {
    writes: [GITHUB_SIGNATURE_HEADER],
    reads: [GITHUB_SIGNATURE_HEADER, LEGACY_SHA1_HEADER],
    signature: [GITHUB_SIGNATURE_HEADER, LEGACY_SHA1_HEADER],
  },
  customSignatureHeader: false,
  secret: {
    required: true,
    problem: anySecret,
    notRegenerable: issuedBy("GitHub (the webhook's Secret field in the repository or organization settings)"),
  },
  timestamp: null,

  verify(input) {
    const header = headerValue(input.headers, GITHUB_SIGNATURE_HEADER);
    if (header === undefined) {
      // Only the SHA-1 header: the webhook was configured (or proxied) without the SHA-256 one,
      // and SHA-1 is not accepted: say so rather than just "missing".
      const detail =
        headerValue(input.headers, LEGACY_SHA1_HEADER) !== undefined
          ? `Only the legacy X-Hub-Signature (SHA-1) header came; GitHub's ${GITHUB_SIGNATURE_HEADER} (SHA-256) header is required.`
          : `The ${GITHUB_SIGNATURE_HEADER} header is missing.`;
      return invalid('github', 'missing_header', detail);
    }
    const signature = parseGithubSignature(header);
    if (!signature) {
      return invalid(
        'github',
        'malformed_header',
        `${GITHUB_SIGNATURE_HEADER} must look like sha256=<64 lower-case hex characters>, as GitHub sends it.`,
      );
    }
    if (input.secrets.length === 0) return invalid('github', 'missing_secret', 'The endpoint has no signing secret.');
    for (const secret of input.secrets) {
      if (sameBytes(signature, hmacSha256(secret.value, input.rawBody))) return valid('github', secret.kind);
    }
    return invalid(
      'github',
      'no_matching_signature',
      `The ${GITHUB_SIGNATURE_HEADER} signature does not match an HMAC-SHA256 of the body with the endpoint's secret.`,
    );
  },

  sign: ({ body, secret }) => [[GITHUB_SIGNATURE_HEADER, githubSignatureHeader(secret, body)]],

  /** GitHub's ping, the first delivery a new webhook gets. */
  samplePayload(ctx) {
    const { random } = ctx;
    const iso = new Date(ctx.nowMs).toISOString();
    const hookId = digits(random, 9);
    return jsonSample(
      {
        zen: 'Design for failure.',
        hook_id: hookId,
        hook: {
          type: 'Repository',
          id: hookId,
          name: 'web',
          active: true,
          events: ['push', 'pull_request'],
          config: { content_type: 'json', insecure_ssl: '0', url: ctx.receiverUrl },
          created_at: iso,
          updated_at: iso,
        },
        repository: { id: digits(random, 9), name: 'hello-world', full_name: 'octocat/hello-world', private: false },
        sender: { login: 'octocat', id: 1, type: 'User' },
      },
      [
        ['X-GitHub-Event', 'ping'],
        ['X-GitHub-Delivery', uuid(random)],
        ['X-GitHub-Hook-ID', String(hookId)],
      ],
    );
  },
};
