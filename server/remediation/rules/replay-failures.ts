import { replayFailed, type ReplayRecord } from '../../replay/replay-types.ts';
import { isoTime } from '../../support/clock.ts';
import type { RuleContext } from '../remediation-types.ts';
import type { Evidence } from '../remediation-schemas.ts';

/** Failed replays and forwards that match, newest first. */
export const failedReplays = (ctx: RuleContext, match: (r: ReplayRecord) => boolean): ReplayRecord[] =>
  ctx.replays.filter((r) => replayFailed(r) && match(r));

/** The shared evidence of a replay-failure cause: the latest attempt and how many there were. */
export function replayEvidence(matching: ReplayRecord[]): Evidence[] {
  const last = matching[0]!;
  const evidence: Evidence[] = [
    { label: 'Target', value: last.targetUrl },
    {
      label: 'Attempt',
      value: `${last.trigger === 'forward' ? 'forward' : 'replay'} ${last.id} at ${isoTime(last.createdAt)}`,
    },
  ];
  if (last.status !== null) evidence.push({ label: 'Response status', value: String(last.status) });
  if (last.error) evidence.push({ label: 'Error', value: `${last.error.code}: ${last.error.message}` });
  evidence.push({ label: 'Response time', value: `${last.responseTime} ms` });
  if (matching.length > 1) evidence.push(`${matching.length} attempts failed this way.`);
  return evidence;
}

/** host:port of a URL, with the scheme's default port spelled out. */
export function hostPort(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return url;
  }
}
