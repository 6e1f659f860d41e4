import type { Endpoint } from '../api/client.ts';
import { enumKeys } from './enum-keys.ts';

export type ValidationType = Endpoint['validationType'];

/** What the form says of each type: what the sender signs with, and where the secret comes from. */
const DESCRIBED: Record<ValidationType, { label: string; explains: string }> = {
  none: { label: 'None', explains: 'Accept every delivery; nothing is verified.' },
  stripe: {
    label: 'Stripe',
    explains:
      'Stripe-Signature (t=, v1=) with the endpoint secret from the Stripe dashboard or stripe listen (whsec_…).',
  },
  github: { label: 'GitHub', explains: 'X-Hub-Signature-256 with the webhook secret you set in GitHub.' },
  shopify: { label: 'Shopify', explains: 'X-Shopify-Hmac-Sha256 (base64) with the app’s client secret.' },
  slack: { label: 'Slack', explains: 'X-Slack-Signature (v0=) over the timestamp and body, with the signing secret.' },
  standard_webhooks: {
    label: 'Standard Webhooks',
    explains: 'webhook-signature (v1,) as Svix, Clerk and others send it; secret whsec_<base64>.',
  },
  hmac_sha256: {
    label: 'HMAC-SHA256',
    explains: 'Your own service: a hex HMAC-SHA256 of the body in a header you name.',
  },
};

/** One line per type for the form, in the order above: every type the API document lists. */
export const VALIDATION_TYPES: { id: ValidationType; label: string; explains: string }[] = enumKeys(DESCRIBED).map(
  (id) => ({ id, ...DESCRIBED[id] }),
);

/** A fresh random secret in the whsec_<base64> form every signing type accepts. */
export function generateSecret(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(24));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}
