import type { ValidationType } from './validation-types.ts';
import { exactTime } from './relative-time.ts';

/**
 * Who issues an endpoint's signing secret, and where the user finds it. Keyed by the
 * API's validation types, so a type the engine adds does not compile until it is here.
 * `hookscope`: Hookscope makes it (Regenerate); `sender`: the provider shows it and
 * the user pastes it (the engine refuses to regenerate those, 409 SECRET_NOT_REGENERABLE);
 * `none`: nothing is signed, so there is no secret.
 */
const SOURCES: Record<ValidationType, { issuer: 'hookscope' | 'sender' | 'none'; where: string }> = {
  none: { issuer: 'none', where: '' },
  stripe: {
    issuer: 'sender',
    where: 'Stripe shows it (whsec_…) under Developers > Webhooks, or stripe listen prints it',
  },
  github: { issuer: 'sender', where: 'GitHub shows it in the webhook’s Secret field' },
  shopify: { issuer: 'sender', where: 'Shopify shows it as the app’s client secret' },
  slack: { issuer: 'sender', where: 'Slack shows it as the app’s Signing Secret under Basic Information' },
  standard_webhooks: { issuer: 'sender', where: 'the sending service shows it (whsec_…) in its webhook settings' },
  hmac_sha256: { issuer: 'hookscope', where: 'your service signs with it, or Generate makes one' },
};

/** Whether the endpoint checks a signature, and so has a secret to set. */
export const hasSigningSecret = (t: ValidationType): boolean => SOURCES[t].issuer !== 'none';

/** Whether Hookscope issues the secret, so Regenerate may make a new one (hmac_sha256 only). */
export const hookscopeIssuesSecret = (t: ValidationType): boolean => SOURCES[t].issuer === 'hookscope';

/** Where the user finds the secret to type, as a clause ("GitHub shows it in the webhook’s Secret field"). */
export const secretSource = (t: ValidationType): string => SOURCES[t].where;

/** What Endpoint settings says under `Signing secret`: where the secret comes from, and that the URL stays. */
export function secretHint(t: ValidationType): string {
  return SOURCES[t].issuer === 'hookscope'
    ? 'Type the secret your service signs with, or let Hookscope make one (Regenerate). The URL stays the same.'
    : `Paste the current one: ${SOURCES[t].where}. The URL stays the same.`;
}

/**
 * The one line after `Save secret`. The secret itself is never shown back (the API
 * never returns it); until when the previous one verifies is what a sender still
 * signing with it needs to know.
 */
export function secretSavedLine(previousSecretExpiresAt: string | null): string {
  return previousSecretExpiresAt === null
    ? 'Secret saved; the URL stays the same.'
    : `Secret saved; the URL stays the same. The previous secret still verifies until ${exactTime(previousSecretExpiresAt)}.`;
}
