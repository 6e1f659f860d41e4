import type { LogSummary } from '../../api/client.ts';
import { formatBytes, queryText, verdict } from '../../lib/format.ts';
import { exactTime, relativeTime } from '../../lib/relative-time.ts';
import { EventType } from '../shared/event-type.tsx';
import { SenderText } from '../shared/sender-text.tsx';

export interface DeliveryRowProps {
  log: LogSummary;
  selected: boolean;
  checked: boolean;
  now: number;
  onOpen: () => void;
  onCheck: (range: boolean) => void;
}

/** One delivery in the list: request line, verdict, size, time and event type, with its tick box. */
export function DeliveryRow({ log, selected, checked, now, onOpen, onCheck }: DeliveryRowProps) {
  const failed = log.status === 'failed';
  return (
    <div className={selected ? 'row-wrap selected' : 'row-wrap'}>
      <input
        type="checkbox"
        className="row-check"
        checked={checked}
        aria-label={`Select ${log.method} ${log.path} (${log.id})`}
        onChange={(e) => onCheck((e.nativeEvent as MouseEvent).shiftKey === true)}
      />
      <button
        type="button"
        className="row"
        onClick={(e) => {
          // Ctrl/Cmd-click ticks a row, Shift-click a range, as file lists do; a plain click opens it.
          if (e.ctrlKey || e.metaKey || e.shiftKey) onCheck(e.shiftKey);
          else onOpen();
        }}
        aria-current={selected || undefined}
      >
        <span className="row-line">
          {log.pinned && (
            <span className="pinned" title="Pinned: never evicted by retention">
              Pinned
            </span>
          )}
          <span className="method">{log.method}</span>
          <span className="path">
            <SenderText text={`${log.path}${queryText(log.query)}`} />
          </span>
        </span>
        <span className="row-line row-meta">
          <span className={failed ? 'status failed' : 'status ok'} title={verdict(log.verification)}>
            {verdict(log.verification)}
          </span>
          <span>{formatBytes(log.size)}</span>
          <time dateTime={log.receivedAt} title={exactTime(log.receivedAt)}>
            {relativeTime(Date.parse(log.receivedAt), now)}
          </time>
        </span>
        {log.eventType !== null && <EventType name={log.eventType} />}
      </button>
    </div>
  );
}
