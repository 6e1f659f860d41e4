import { assertNever } from '../../support/assert-never.ts';
import { githubVerifier } from './github-verifier.ts';
import { hmacSha256Verifier } from './hmac-sha256-verifier.ts';
import { noneVerifier } from './none-verifier.ts';
import { shopifyVerifier } from './shopify-verifier.ts';
import { slackVerifier } from './slack-verifier.ts';
import { standardWebhooksVerifier } from './standard-webhooks-verifier.ts';
import { stripeVerifier } from './stripe-verifier.ts';
import type { VerificationInput, VerificationResult, VerificationScheme, Verifier } from './verifier-types.ts';

export function verifierFor(scheme: VerificationScheme): Verifier {
  switch (scheme) {
    case 'stripe':
      return stripeVerifier;
    case 'github':
      return githubVerifier;
    case 'shopify':
      return shopifyVerifier;
    case 'slack':
      return slackVerifier;
    case 'standard_webhooks':
      return standardWebhooksVerifier;
    case 'hmac_sha256':
      return hmacSha256Verifier;
    case 'none':
      return noneVerifier;
    default:
      return assertNever(scheme, 'verification scheme');
  }
}

export function verify(scheme: VerificationScheme, input: VerificationInput): VerificationResult {
  return verifierFor(scheme).verify(input);
}
