import type { ApiSchemas } from '../api/client.ts';

export type Refusals = ApiSchemas['Refusals'];
export type RefusalReason = Refusals['reasons'][number]['reason'];

/**
 * What follows the count for each reason. Keyed by the OpenAPI document's enum, so a
 * reason the engine adds does not compile until it has its words; at run time an
 * engine newer than the page may still send one, which is left out (docs/API.md).
 */
export const REFUSAL_WORDS: Record<RefusalReason, string> = {
  rate_limited: 'refused by the rate limit',
  endpoint_inactive: 'refused because the endpoint is switched off',
  payload_too_large: 'refused as larger than the body limit',
};

export interface RefusalLine {
  reason: RefusalReason;
  count: number;
  text: string;
  /** The latest of them (ISO 8601). */
  lastAt: string;
}

/** Endpoint names shown after a line in All endpoints; beyond this many, "and N more". */
const NAMED = 3;

function nameList(names: string[]): string {
  if (names.length <= NAMED) return names.join(', ');
  return `${names.slice(0, NAMED).join(', ')} and ${names.length - NAMED} more`;
}

/**
 * The summary on top of the deliveries list: one line per reason refused in the last
 * minute, most first, for the chosen endpoint (null: all of them, each line then naming
 * its endpoints). The counts are always the `1m` window's (refusals-store.ts reads no other).
 */
export function refusalLines(
  counts: Refusals | null,
  endpointId: string | null,
  names: ReadonlyMap<string, string>,
): RefusalLine[] {
  if (counts === null) return [];
  const reasons =
    endpointId === null ? counts.reasons : (counts.endpoints.find((e) => e.endpointId === endpointId)?.reasons ?? []);
  return reasons
    .filter((r) => Object.hasOwn(REFUSAL_WORDS, r.reason))
    .map((r) => {
      let text = `${r.count} ${REFUSAL_WORDS[r.reason]} in the last minute`;
      if (endpointId === null) {
        const which = counts.endpoints
          .filter((e) => e.reasons.some((x) => x.reason === r.reason))
          .map((e) => names.get(e.endpointId) ?? e.endpointId);
        if (which.length > 0) text += ` (${nameList(which)})`;
      }
      return { reason: r.reason, count: r.count, text, lastAt: r.lastAt };
    });
}
