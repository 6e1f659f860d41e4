import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { LogSummary } from '../api/client.ts';
import { formatBytes, queryText, verdict } from '../lib/format.ts';
import { exactTime, relativeTime } from '../lib/relative-time.ts';
import { useSlice, useStores } from '../stores/app-stores.ts';
import { useNow } from './use-now.ts';
import { DeliveriesEmpty } from './onboarding.tsx';

const ROW_HEIGHT = 52;

interface RowProps {
  log: LogSummary;
  selected: boolean;
  checked: boolean;
  now: number;
  onOpen: () => void;
  onCheck: (range: boolean) => void;
}

function Row({ log, selected, checked, now, onOpen, onCheck }: RowProps) {
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
    </div>
  );
}

/** Compare (two ticked), Delete and Export (any ticked). */
function SelectionBar({ checked }: { checked: string[] }) {
  const { deliveries, compare, notices } = useStores();
  const exportChecked = async (): Promise<void> => {
    const files: unknown[] = [];
    for (const id of checked) {
      const text = await deliveries.getState().exportText(id, 'json');
      if (text === null) return;
      files.push(JSON.parse(text));
    }
    const url = URL.createObjectURL(new Blob([JSON.stringify(files, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `hookscope-${checked.length}-deliveries.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    notices.getState().info(`Exported ${checked.length} deliveries as JSON.`);
  };
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selected deliveries">
      <span>{checked.length} selected</span>
      <button
        type="button"
        disabled={checked.length !== 2}
        title={checked.length === 2 ? undefined : 'Tick exactly two deliveries'}
        onClick={() => {
          // The older of the two is A: the diff reads as "what changed since".
          const logs = deliveries.getState().logs;
          const [x, y] = [...checked].sort(
            (p, q) => logs.findIndex((l) => l.id === q) - logs.findIndex((l) => l.id === p),
          );
          void compare.getState().compare(x!, y!);
        }}
      >
        Compare
      </button>
      <button type="button" className="secondary" onClick={() => void exportChecked()}>
        Export
      </button>
      <button
        type="button"
        className="secondary danger"
        onClick={() => {
          if (window.confirm(`Delete ${checked.length} deliveries for good?`))
            void deliveries.getState().remove(checked);
        }}
      >
        Delete
      </button>
      <button type="button" className="secondary" onClick={() => deliveries.getState().clearChecked()}>
        Clear selection
      </button>
    </div>
  );
}

export function DeliveriesPane() {
  const { deliveries } = useStores();
  const logs = useSlice(deliveries, (s) => s.logs);
  const total = useSlice(deliveries, (s) => s.total);
  const filter = useSlice(deliveries, (s) => s.filter);
  const selectedId = useSlice(deliveries, (s) => s.selectedId);
  const checked = useSlice(deliveries, (s) => s.checked);
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
      {checked.length > 0 && <SelectionBar checked={checked} />}
      <div className="scroller" ref={scroller}>
        {logs.length === 0 ? (
          <DeliveriesEmpty />
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
                    checked={checked.includes(log.id)}
                    onOpen={() => void deliveries.getState().select(log.id)}
                    onCheck={(range) => deliveries.getState().toggleChecked(log.id, range)}
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
