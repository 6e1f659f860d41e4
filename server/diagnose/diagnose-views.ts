import { summaryView } from '../logs/log-views.ts';
import { historyEntry } from '../replay/replay-types.ts';
import { isoTime } from '../support/clock.ts';
import type { DiagnosisView } from './diagnose-schemas.ts';
import type { Diagnosis } from './diagnose-types.ts';

/** A diagnosis as GET /api/cli/diagnose/:logId answers it: the log as the list shows it, times as ISO strings. */
export function diagnosisView(d: Diagnosis): DiagnosisView {
  const { now } = d.verification;
  return {
    log: summaryView(d.log),
    reconstruction: d.reconstruction,
    verification: { stored: d.verification.stored, now: now && { ...now, checkedAt: isoTime(now.checkedAt) } },
    destination: d.destination,
    recentReplays: d.recentReplays.map(historyEntry),
  };
}
