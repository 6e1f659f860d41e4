import type { LogStatus } from '../logs/log-types.ts';
import { replayFailed, type ReplayRecord } from '../replay/replay-types.ts';

/** Replays an analysis looks at: the newest this many. */
export const REPLAY_HISTORY_LIMIT = 50;

/**
 * Whether an analysis has something to explain: a failed verification, or a failed
 * replay or forward among the newest REPLAY_HISTORY_LIMIT (`replays`, newest first).
 * The one rule behind analyze's 409 NOT_ELIGIBLE, the log detail's `explainable`
 * and the `log.updated` event that says it changed.
 */
export function isExplainable(status: LogStatus, replays: readonly Pick<ReplayRecord, 'status' | 'error'>[]): boolean {
  return status === 'failed' || replays.slice(0, REPLAY_HISTORY_LIMIT).some(replayFailed);
}
