import { isoTime } from '../../support/clock.ts';
import type { CauseCode, RuleCause, RuleContext } from '../remediation-types.ts';

/** Causes that explain a signature mismatch better than "wrong secret". */
const EXPLAINS_MISMATCH: readonly CauseCode[] = [
  'previous_secret',
  'encoding_mismatch',
  'body_modified',
  'wrong_header_name',
  'wrong_provider',
];

/**
 * The fallback: the signature is well formed but matches no secret we know,
 * for no body, encoding or header variant. Less certain than the proven causes.
 */
export function wrongSecretRule(ctx: RuleContext, found: readonly RuleCause[]): RuleCause[] {
  if (ctx.log.verification.reason !== 'no_matching_signature') return [];
  if (found.some((c) => EXPLAINS_MISMATCH.includes(c.code))) return [];
  const stripe = ctx.endpoint.scheme === 'stripe';
  const prev = ctx.endpoint.previous;
  const tried = prev?.value ? 'the current secret and the previous one' : 'the current secret';
  // The previous secret is erased once its grace is over, so a sender still using it can only be suspected.
  const rotated: RuleCause['evidence'] =
    prev && prev.value === null
      ? [
          {
            label: 'Secret rotated',
            value: `${prev.replacedAt !== null ? `at ${isoTime(prev.replacedAt)}; ` : ''}the previous secret stopped being accepted at ${isoTime(prev.expiredAt)} and was erased, so a sender still using it cannot be proven`,
          },
        ]
      : [];
  return [
    {
      code: 'wrong_secret',
      title: 'The sender signs with a different secret than this endpoint has',
      confidence: 0.7,
      evidence: [
        `The signature matches no HMAC of the stored body with ${tried}.`,
        'No re-serialised or whitespace-changed body, other encoding or other header verifies either.',
        ...(stripe ? [{ label: 'Secret format', value: secretShape(ctx) }] : []),
        ...rotated,
      ],
      steps: stripe
        ? [
            'Copy the signing secret again from its source: each `stripe listen` session prints its own whsec_ secret, and each dashboard endpoint (test and live mode separately) has its own.',
            'Make sure the endpoint holds the secret of the exact source sending to it: set it on this endpoint, whose URL stays the same (`hookscope endpoints set-secret <id>`, or PUT /api/endpoints/<id>/secret), then replay with resign or trigger a new event (stripe trigger payment_intent.succeeded).',
            'Use the whole whsec_... string as the key, without surrounding spaces or quotes.',
          ]
        : [
            'Copy the secret again from the sender and compare it with the one set on this endpoint (no trailing newline, spaces or quotes).',
            "Check that the sender keys the HMAC with the secret's UTF-8 text, not a hex- or base64-decoded form of it.",
            "If the endpoint holds the wrong one, set the sender's secret on it (`hookscope endpoints set-secret <id>`, or PUT /api/endpoints/<id>/secret; its URL stays the same).",
          ],
    },
  ];
}

/** Describes the current secret without revealing it. */
function secretShape(ctx: RuleContext): string {
  const s = ctx.endpoint.secrets.find((x) => x.kind === 'current')?.value;
  if (!s) return 'no secret set';
  return `${s.startsWith('whsec_') ? 'starts with whsec_' : 'does not start with whsec_ (Stripe secrets do)'}, ${s.length} characters`;
}
