import { useEffect, useRef } from 'react';
import type { LogSummary } from '../../api/client.ts';
import { formatBytes, queryText, verdict, verdictTone } from '../../lib/format.ts';
import { exactTime, relativeTime } from '../../lib/relative-time.ts';
import { EventType } from '../shared/event-type.tsx';
import { SenderText } from '../shared/sender-text.tsx';

export interface DeliveryRowProps {
  log: LogSummary;
  selected: boolean;
  checked: boolean;
  now: number;
  /** The endpoint's name, shown in "All endpoints" (with one endpoint chosen every row is its own: undefined). */
  endpoint?: string | undefined;
  onOpen: () => void;
  onCheck: (range: boolean) => void;
  /** The list's one tab stop (roving focus): the current row alone is reached by Tab. */
  tabStop?: boolean;
  /** Asked to take focus (the keyboard moved to this row); onFocusTaken once it has. */
  takeFocus?: boolean;
  onFocusTaken?: () => void;
}

/** One delivery in the list: request line, verdict, size, time, endpoint (in All endpoints) and event type, with its tick box. */
export function DeliveryRow({
  log,
  selected,
  checked,
  now,
  endpoint,
  onOpen,
  onCheck,
  tabStop = false,
  takeFocus = false,
  onFocusTaken,
}: DeliveryRowProps) {
  const button = useRef<HTMLButtonElement>(null);
  // Once drawn: a row moved to by j/k (or Esc back to the list) may only now be scrolled into the page.
  useEffect(() => {
    if (!takeFocus || button.current === null) return;
    button.current.focus();
    onFocusTaken?.();
  }, [takeFocus, onFocusTaken]);
  return (
    <div className={selected ? 'row-wrap selected' : 'row-wrap'}>
      <input
        type="checkbox"
        className="row-check"
        checked={checked}
        aria-label={`Select ${log.method} ${log.path} (${log.id})`}
        // Not a tab stop: Space on the row ticks it, so Tab leaves the list in one press.
        tabIndex={-1}
        onChange={(e) => onCheck((e.nativeEvent as MouseEvent).shiftKey === true)}
      />
      <button
        type="button"
        className="row"
        ref={button}
        tabIndex={tabStop ? 0 : -1}
        onKeyDown={(e) => {
          // Space ticks the row (Shift+Space a range), as the tick box would; Enter opens it (use-shortcuts then goes to its detail).
          if (e.key === ' ') {
            e.preventDefault();
            onCheck(e.shiftKey);
          } else if (e.key === 'Enter' && !selected) onOpen();
        }}
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
          <span className={`status ${verdictTone(log.verification)}`} title={verdict(log.verification)}>
            {verdict(log.verification)}
          </span>
          <span>{formatBytes(log.size)}</span>
          <time dateTime={log.receivedAt} title={exactTime(log.receivedAt)}>
            {relativeTime(Date.parse(log.receivedAt), now)}
          </time>
          {endpoint !== undefined && (
            <span className="row-endpoint" title={`Endpoint: ${endpoint}`}>
              {endpoint}
            </span>
          )}
        </span>
        {log.eventType !== null && <EventType name={log.eventType} />}
      </button>
    </div>
  );
}
