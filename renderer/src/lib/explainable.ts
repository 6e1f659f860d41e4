import { replayFailed } from '../../../server/api-client/shared.ts';
import type { LogSummary } from '../api/client.ts';
import type { ReplayState } from '../stores/replay-store.ts';

/**
 * Whether "Explain" has something to say about a delivery: the engine's own rule
 * (a 409 NOT_ELIGIBLE otherwise) is a failed verification, or a replay or forward of
 * it that failed, as far as the replay history read for it shows.
 */
export function explainable(
  log: Pick<LogSummary, 'id' | 'status'>,
  replay: Pick<ReplayState, 'logId' | 'history'>,
): boolean {
  return log.status === 'failed' || (replay.logId === log.id && replay.history.some(replayFailed));
}
