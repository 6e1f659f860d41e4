import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { LogSummary } from '../api/client.ts';
import { formatBytes, queryText, verdict } from '../lib/format.ts';
import { exactTime, relativeTime } from '../lib/relative-time.ts';
import { useSlice, useStores } from '../stores/app-stores.ts';

const ROW_HEIGHT = 52;

function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

function Row({ log, selected, now, onOpen }: { log: LogSummary; selected: boolean; now: number; onOpen: () => void }) {
  const failed = log.status === 'failed';
  return (
    <button
      type="button"
      className={selected ? 'row selected' : 'row'}
      onClick={onOpen}
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
          {log.path}
          {queryText(log.query)}
        </span>
      </span>
      <span className="row-line row-meta">
        <span className={failed ? 'status failed' : 'status ok'}>{verdict(log.verification)}</span>
        <span>{formatBytes(log.size)}</span>
        <time dateTime={log.receivedAt} title={exactTime(log.receivedAt)}>
          {relativeTime(Date.parse(log.receivedAt), now)}
        </time>
      </span>
    </button>
  );
}

export function DeliveriesPane() {
  const { deliveries } = useStores();
  const logs = useSlice(deliveries, (s) => s.logs);
  const total = useSlice(deliveries, (s) => s.total);
  const filter = useSlice(deliveries, (s) => s.filter);
  const selectedId = useSlice(deliveries, (s) => s.selectedId);
  const [search, setSearch] = useState(filter.search);
  const scroller = useRef<HTMLDivElement>(null);
  const now = useNow(10_000);
  const rows = useVirtualizer({
    count: logs.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });

  // Typing searches after a pause, not on every key.
  useEffect(() => {
    if (search === filter.search) return;
    const t = setTimeout(() => void deliveries.getState().setFilter({ search }), 250);
    return () => clearTimeout(t);
  }, [search, filter.search, deliveries]);

  return (
    <section className="pane deliveries-pane" aria-label="Deliveries pane">
      <div className="pane-head">
        <h2>Deliveries</h2>
        <span className="count">{total}</span>
      </div>
      <div className="filters">
        <input
          type="search"
          aria-label="Search deliveries"
          placeholder="Search deliveries"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <div role="radiogroup" aria-label="Status" className="chips">
          {(['all', 'success', 'failed'] as const).map((s) => (
            <label key={s} className={filter.status === s ? 'chip selected' : 'chip'}>
              <input
                type="radio"
                name="status"
                value={s}
                checked={filter.status === s}
                onChange={() => void deliveries.getState().setFilter({ status: s })}
              />
              {s === 'all' ? 'All' : s === 'success' ? 'Success' : 'Failed'}
            </label>
          ))}
        </div>
      </div>
      <div className="scroller" ref={scroller}>
        {logs.length === 0 ? (
          <p className="empty">No deliveries yet. Send a webhook to an endpoint’s URL and it appears here at once.</p>
        ) : (
          <div role="list" aria-label="Deliveries" style={{ height: rows.getTotalSize(), position: 'relative' }}>
            {rows.getVirtualItems().map((v) => {
              const log = logs[v.index]!;
              return (
                <div
                  role="listitem"
                  key={log.id}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}
                >
                  <Row
                    log={log}
                    now={now}
                    selected={log.id === selectedId}
                    onOpen={() => void deliveries.getState().select(log.id)}
                  />
                </div>
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
}
