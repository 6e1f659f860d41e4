import { isoTime } from '../support/clock.ts';
import type { LogComparisonView } from './compare-schemas.ts';
import type { ComparedLog, LogComparison } from './log-comparison.ts';

const sideView = (s: ComparedLog): LogComparisonView['a'] => ({ ...s, receivedAt: isoTime(s.receivedAt) });

/** A comparison as GET /api/webhooks/compare answers it. */
export function comparisonView(c: LogComparison): LogComparisonView {
  return { ...c, a: sideView(c.a), b: sideView(c.b) };
}
