import { UNSAFE_SUB_PATH, type ReplayRecord } from '../../replay/replay-types.ts';
import { shellQuote } from '../../support/shell-quote.ts';
import type { RuleCause, RuleContext } from '../remediation-types.ts';
import { failedReplays, hostPort, replayEvidence } from './replay-failures.ts';

const UNREACHABLE = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH|refused|getaddrinfo/i;

// An UNSAFE_SUB_PATH message quotes the sender's path: its words prove nothing.
export const isUnreachable = (r: ReplayRecord): boolean =>
  r.error !== null &&
  (r.error.code === 'TARGET_UNREACHABLE' || (r.error.code !== UNSAFE_SUB_PATH && UNREACHABLE.test(r.error.message)));

/** A replay or forward found nobody listening (connection refused, DNS failure, reset). */
export function targetUnreachableRule(ctx: RuleContext): RuleCause[] {
  const matching = failedReplays(ctx, isUnreachable);
  if (matching.length === 0) return [];
  const where = hostPort(matching[0]!.targetUrl);
  return [
    {
      code: 'target_unreachable',
      title: `Nothing answered at ${where}`,
      confidence: 0.95,
      evidence: replayEvidence(matching),
      steps: [
        `Is your dev server running and listening on ${where}? Start it, then replay again.`,
        'Check the port and the host: a server bound to ::1 does not answer on 127.0.0.1 (and the reverse); "localhost" may resolve to either.',
        `Try it by hand: curl -v ${shellQuote(matching[0]!.targetUrl)}`,
      ],
    },
  ];
}
