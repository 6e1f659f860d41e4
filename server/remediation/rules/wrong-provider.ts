import { providersPresent, signatureHeaderNames } from '../../signatures/registry.ts';
import type { RuleCause, RuleContext } from '../remediation-types.ts';
import { probe, signatureMatches } from './probe.ts';

/**
 * The endpoint's signature header is missing, but another provider's is
 * there: the delivery comes from a different provider than the endpoint is
 * set up for. When that provider's verifier exists, the endpoint's secret is
 * tried with it too.
 */
export function wrongProviderRule(ctx: RuleContext): RuleCause[] {
  if (ctx.log.verification.reason !== 'missing_header') return [];
  const present = providersPresent(Object.keys(ctx.log.headers)).filter((p) => p !== ctx.endpoint.scheme);
  return present.map((provider) => {
    const headers = signatureHeaderNames(provider, null).filter((h) => h in ctx.log.headers);
    const asOther = probe({ ...ctx, endpoint: { ...ctx.endpoint, scheme: provider, signatureHeader: null } });
    const verifies = signatureMatches(asOther);
    const evidence: RuleCause['evidence'] = [
      `The endpoint is ${ctx.endpoint.scheme}, but its signature header is missing.`,
      { label: 'Signature header present', value: headers.join(', ') },
      { label: 'Suggested validationType', value: provider },
    ];
    if (verifies) evidence.push(`The delivery verifies as ${provider} with this endpoint's secret.`);
    return {
      code: 'wrong_provider',
      title: `This looks like a ${provider} delivery sent to a ${ctx.endpoint.scheme} endpoint`,
      confidence: verifies ? 0.97 : 0.88,
      evidence,
      steps: [
        `Create an endpoint with validationType ${provider} and that provider's signing secret, and point the ${provider} webhook at its URL.`,
        'Or, if this endpoint is meant for another sender, check that the provider is configured with the right URL.',
      ],
    };
  });
}
