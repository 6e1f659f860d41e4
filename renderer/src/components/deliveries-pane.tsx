import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { downloadBytes } from '../lib/download.ts';
import { scrolledAway } from '../lib/follow-newest.ts';
import { useSlice, useStores } from '../stores/app-stores.ts';
import { DeliveryRow } from './delivery-row.tsx';
import { useFollowNewest } from './use-follow-newest.ts';
import { useNow } from './use-now.ts';
import { DeliveriesEmpty } from './onboarding.tsx';

const ROW_HEIGHT = 52;
/** The next page is asked for when the rows shown come this close to the last one loaded. */
const NEAR_END = 20;

/** The row after the last one loaded while the engine has more: loading, or why not and a retry. */
function MoreRow({ loading, failed, onRetry }: { loading: boolean; failed: boolean; onRetry: () => void }) {
  if (failed) {
    return (
      <div className="more-row">
        Loading more deliveries failed.{' '}
        <button type="button" className="secondary tiny" onClick={onRetry}>
          Retry
        </button>
      </div>
    );
  }
  return (
    <div className="more-row" role="status">
      {loading ? 'Loading more…' : ''}
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
    downloadBytes(
      new TextEncoder().encode(JSON.stringify(files, null, 2)),
      `hookscope-${checked.length}-deliveries.json`,
      'application/json',
    );
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
  const hasMore = useSlice(deliveries, (s) => s.hasMore);
  const loadingMore = useSlice(deliveries, (s) => s.loadingMore);
  const moreFailed = useSlice(deliveries, (s) => s.moreFailed);
  const following = useSlice(deliveries, (s) => s.following);
  const filter = useSlice(deliveries, (s) => s.filter);
  const selectedId = useSlice(deliveries, (s) => s.selectedId);
  const checked = useSlice(deliveries, (s) => s.checked);
  const [search, setSearch] = useState(filter.search);
  const scroller = useRef<HTMLDivElement>(null);
  // Rows added on top while not following, to scroll past once they are drawn (keeping the rows read in place).
  const shiftBy = useRef(0);
  const now = useNow(10_000);
  const rows = useVirtualizer({
    count: logs.length + (hasMore ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = rows.getVirtualItems();
  const lastShown = items.length > 0 ? items[items.length - 1]!.index : -1;

  const scrollToTop = useCallback(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, []);
  const keepPlace = useCallback((added: number) => {
    shiftBy.current += added;
  }, []);
  useFollowNewest(deliveries, scrollToTop, keepPlace);
  useLayoutEffect(() => {
    const el = scroller.current;
    const shift = shiftBy.current;
    shiftBy.current = 0;
    // At the very top the new rows are meant to be seen; further down they would push the rows being read away.
    if (el && shift > 0 && el.scrollTop > 0) el.scrollTop += shift * ROW_HEIGHT;
  }, [logs]);

  // The next page, as the rows shown near the end of those loaded.
  useEffect(() => {
    if (hasMore && lastShown >= logs.length - NEAR_END) void deliveries.getState().loadMore();
  }, [hasMore, lastShown, logs.length, deliveries]);

  // The open delivery stays in view when the keyboard moves it (j/k) past the rows shown.
  useEffect(() => {
    if (selectedId === null) return;
    const i = deliveries.getState().logs.findIndex((l) => l.id === selectedId);
    if (i !== -1) rows.scrollToIndex(i, { align: 'auto' });
  }, [selectedId, deliveries, rows]);

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
        <span
          className="count"
          title={logs.length < total ? 'Loaded, of those matching the filters; scroll down for more' : undefined}
        >
          {logs.length < total ? `${logs.length} of ${total}` : total}
        </span>
        <button
          type="button"
          className={following ? 'secondary tiny follow on' : 'secondary tiny follow'}
          aria-pressed={following}
          title={
            following
              ? 'New deliveries open as they arrive; clicking a row, j/k or scrolling down pauses this'
              : 'Jump to the newest delivery and open new ones as they arrive'
          }
          onClick={() => deliveries.getState().setFollowing(!following)}
        >
          Follow newest
        </button>
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
      <div
        className="scroller"
        ref={scroller}
        onScroll={(e) => {
          // Scrolling down to read is navigation: following would pull the list back up.
          if (deliveries.getState().following && scrolledAway(e.currentTarget.scrollTop, ROW_HEIGHT))
            deliveries.getState().setFollowing(false);
        }}
      >
        {logs.length === 0 ? (
          <DeliveriesEmpty />
        ) : (
          <div role="list" aria-label="Deliveries" style={{ height: rows.getTotalSize(), position: 'relative' }}>
            {items.map((v) => {
              const log = logs[v.index];
              return (
                <div
                  role="listitem"
                  key={log?.id ?? 'more'}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}
                >
                  {log ? (
                    <DeliveryRow
                      log={log}
                      now={now}
                      selected={log.id === selectedId}
                      checked={checked.includes(log.id)}
                      onOpen={() => void deliveries.getState().select(log.id)}
                      onCheck={(range) => deliveries.getState().toggleChecked(log.id, range)}
                    />
                  ) : (
                    <MoreRow
                      loading={loadingMore}
                      failed={moreFailed}
                      onRetry={() => void deliveries.getState().loadMore(true)}
                    />
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
}
