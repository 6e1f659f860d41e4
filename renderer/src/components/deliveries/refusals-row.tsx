import { useMemo } from 'react';
import { refusalLines, type RefusalReason } from '../../lib/refusal-lines.ts';
import { exactTime } from '../../lib/relative-time.ts';
import { VIEW_HASH } from '../../lib/view-route.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { useEngineStopped } from '../shared/engine-gate.ts';

/** A time of day (HH:MM:SS, local). */
const clock = (iso: string): string => exactTime(iso).slice(11);

/** Where each reason is governed: the rate limit is a setting, the others belong to the endpoint or the engine's config. */
function Remedy({ reason }: { reason: RefusalReason }) {
  switch (reason) {
    case 'rate_limited':
      return <a href={VIEW_HASH.settings}>Rate limit in Settings</a>;
    case 'endpoint_inactive':
      return <span className="refusal-remedy">Switch it on in Endpoint settings</span>;
    case 'payload_too_large':
      return (
        <span
          className="refusal-remedy"
          title="The body limit is maxBodyBytes in config.json, or HOOKSCOPE_MAX_BODY_BYTES"
        >
          Each is also listed below as failed
        </span>
      );
  }
}

/**
 * Deliveries the receiver refused in the last minute (rate limit, endpoint switched
 * off, too large), on top of the list: refused deliveries are mostly stored nowhere,
 * so the list alone would not show them. One line per reason, for the endpoint chosen
 * (All endpoints: all, each line naming its endpoints). Hidden while the engine is
 * stopped: nothing is counted then, and the alert says so.
 */
export function RefusalsRow() {
  const { refusals, deliveries, endpoints } = useStores();
  const counts = useSlice(refusals, (s) => s.counts);
  const endpointId = useSlice(deliveries, (s) => s.filter.endpointId);
  const list = useSlice(endpoints, (s) => s.endpoints);
  const stopped = useEngineStopped();
  const names = useMemo(() => new Map(list.map((e) => [e.id, e.name])), [list]);
  const lines = refusalLines(counts, endpointId, names);
  if (stopped || counts === null || lines.length === 0) return null;
  const since = `Counted since ${clock(counts.from)} (counts are kept per whole minute)`;
  return (
    <section className="refusals" aria-label="Refused deliveries">
      {lines.map((l) => (
        <p key={l.reason} className="refusal">
          <span className="refusal-count" title={`${since}; the latest at ${clock(l.lastAt)}`}>
            {l.text}
          </span>
          <Remedy reason={l.reason} />
        </p>
      ))}
    </section>
  );
}
