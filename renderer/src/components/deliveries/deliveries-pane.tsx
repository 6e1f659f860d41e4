import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { STATUS_CHIPS } from '../../lib/delivery-filter.ts';
import { enumKeys } from '../../lib/enum-keys.ts';
import { endpointName } from '../../lib/endpoint-names.ts';
import { scrolledAway } from '../../lib/follow-newest.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { DeliveryRow } from './delivery-row.tsx';
import { MoreRow } from './more-row.tsx';
import { NewArrivalsBar } from './new-arrivals-bar.tsx';
import { RefusalsRow } from './refusals-row.tsx';
import { SelectionBar } from './selection-bar.tsx';
import { useFollowNewest } from './use-follow-newest.ts';
import { useNewArrivals } from './use-new-arrivals.ts';
import { tabStopIndex, useRovingRow } from './use-roving-row.ts';
import { useNow } from '../shared/use-now.ts';
import { DeliveriesEmpty } from './onboarding.tsx';

const ROW_HEIGHT = 52;
/** The next page is asked for when the rows shown come this close to the last one loaded. */
const NEAR_END = 20;

export function DeliveriesPane() {
  const { deliveries, selection, endpoints } = useStores();
  const logs = useSlice(deliveries, (s) => s.logs);
  const total = useSlice(deliveries, (s) => s.total);
  const hasMore = useSlice(deliveries, (s) => s.hasMore);
  const loadingMore = useSlice(deliveries, (s) => s.loadingMore);
  const moreFailed = useSlice(deliveries, (s) => s.moreFailed);
  const following = useSlice(selection, (s) => s.following);
  const filter = useSlice(deliveries, (s) => s.filter);
  const selectedId = useSlice(selection, (s) => s.selectedId);
  const checked = useSlice(deliveries, (s) => s.checked);
  const endpointList = useSlice(endpoints, (s) => s.endpoints);
  const endpointsLoaded = useSlice(endpoints, (s) => s.loaded);
  const [search, setSearch] = useState(filter.search);
  const scroller = useRef<HTMLDivElement>(null);
  // Rows added on top while not following, to scroll past once they are drawn (keeping the rows read in place).
  const shiftBy = useRef(0);
  const newArrivals = useNewArrivals(ROW_HEIGHT, filter);
  const now = useNow(10_000);
  const tabStop = tabStopIndex(logs, selectedId);
  const rangeExtractor = useCallback(
    // The list's one tab stop is always drawn, however far it is scrolled: without it Tab would skip the list.
    (range: Range) => {
      const shown = defaultRangeExtractor(range);
      if (tabStop < 0 || shown.includes(tabStop)) return shown;
      return [...shown, tabStop].sort((a, b) => a - b);
    },
    [tabStop],
  );
  const rows = useVirtualizer({
    count: logs.length + (hasMore ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    rangeExtractor,
  });
  const items = rows.getVirtualItems();
  const scrollToRow = useCallback((i: number) => rows.scrollToIndex(i, { align: 'auto' }), [rows]);
  const roving = useRovingRow(logs, selectedId, scrollToRow);
  // The rows on screen, not the items drawn: the tab stop is drawn wherever it is and says nothing of the scroll.
  const lastShown = rows.range?.endIndex ?? -1;

  const scrollToTop = useCallback(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, []);
  const keepPlace = useCallback((added: number) => {
    shiftBy.current += added;
  }, []);
  useFollowNewest(deliveries, selection, scrollToTop, keepPlace);
  useLayoutEffect(() => {
    const el = scroller.current;
    const shift = shiftBy.current;
    shiftBy.current = 0;
    // At the very top the new rows are meant to be seen; further down they would push the rows being read away.
    if (el && shift > 0 && el.scrollTop > 0) {
      el.scrollTop += shift * ROW_HEIGHT;
      newArrivals.arrived(shift);
    }
  }, [logs, newArrivals.arrived]);

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
          onClick={() => selection.getState().setFollowing(!following)}
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
          onKeyDown={roving.leaveSearch}
        />
        <div role="radiogroup" aria-label="Status" className="chips">
          {enumKeys(STATUS_CHIPS).map((s) => (
            <label key={s} className={filter.status === s ? 'chip selected' : 'chip'}>
              <input
                type="radio"
                name="status"
                value={s}
                checked={filter.status === s}
                onChange={() => void deliveries.getState().setFilter({ status: s })}
              />
              {STATUS_CHIPS[s]}
            </label>
          ))}
        </div>
      </div>
      <RefusalsRow />
      {checked.length > 0 && <SelectionBar checked={checked} />}
      <NewArrivalsBar
        count={newArrivals.count}
        onShow={() => {
          scrollToTop();
          // The bar goes once at the top: the list keeps the focus (not a tab stop of its own).
          scroller.current?.focus({ preventScroll: true });
        }}
      />
      <div
        className="scroller"
        ref={scroller}
        tabIndex={-1}
        onScroll={(e) => {
          newArrivals.scrolled(e.currentTarget.scrollTop);
          // Scrolling down to read is navigation: following would pull the list back up.
          if (selection.getState().following && scrolledAway(e.currentTarget.scrollTop, ROW_HEIGHT))
            selection.getState().setFollowing(false);
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
                      endpoint={
                        filter.endpointId === null
                          ? endpointName(endpointList, endpointsLoaded, log.endpointId)
                          : undefined
                      }
                      onOpen={() => void selection.getState().select(log.id)}
                      onCheck={(range) => deliveries.getState().toggleChecked(log.id, range)}
                      tabStop={log.id === roving.currentId}
                      takeFocus={roving.takeFocus && log.id === roving.currentId}
                      onFocusTaken={roving.focusTaken}
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
