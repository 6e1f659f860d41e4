import { useEffect } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { followReaction, type FollowView } from '../../lib/follow-newest.ts';
import type { DeliveryListState } from '../../stores/delivery-list-store.ts';
import type { SelectionState } from '../../stores/selection-store.ts';

/**
 * At most one delivery opened by following per this many milliseconds: under a flood
 * each would fetch its detail, so the newest is opened when the pause is over.
 */
export const FOLLOW_OPEN_EVERY_MS = 250;

const view = (list: DeliveryListState, selection: SelectionState): FollowView => ({
  following: selection.following,
  arrivals: list.arrivals,
  topId: list.logs[0]?.id ?? null,
  selectedId: selection.selectedId,
});

/**
 * "Follow newest" (lib/follow-newest.ts) while the deliveries pane is shown: a
 * delivery that arrives, or pressing the button again, scrolls to the top and opens
 * the newest. Arrivals while it is off are reported to `onArrivedUnfollowed` so the
 * pane can keep the rows being read in place.
 */
export function useFollowNewest(
  list: StoreApi<DeliveryListState>,
  selection: StoreApi<SelectionState>,
  scrollToTop: () => void,
  onArrivedUnfollowed: (rows: number) => void,
): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastOpened = Number.NEGATIVE_INFINITY;
    const openNewest = (): void => {
      timer = null;
      const s = selection.getState();
      const top = list.getState().logs[0];
      if (!s.following || !top || top.id === s.selectedId) return;
      lastOpened = performance.now();
      void s.select(top.id, true);
    };
    // Following looks at both stores (the rows and what is open): each change of either is compared with the last.
    let before = view(list.getState(), selection.getState());
    const changed = (): void => {
      const was = before;
      const now = view(list.getState(), selection.getState());
      // Taken before acting: opening the newest changes the selection, which calls this again.
      before = now;
      const reaction = followReaction(was, now);
      if (reaction.scrollToTop) scrollToTop();
      if (reaction.open !== null && timer === null) {
        const wait = FOLLOW_OPEN_EVERY_MS - (performance.now() - lastOpened);
        if (wait <= 0) openNewest();
        else timer = setTimeout(openNewest, wait);
      }
      if (!now.following && now.arrivals > was.arrivals) onArrivedUnfollowed(now.arrivals - was.arrivals);
    };
    const unsubscribeList = list.subscribe(changed);
    const unsubscribeSelection = selection.subscribe(changed);
    return () => {
      unsubscribeList();
      unsubscribeSelection();
      if (timer !== null) clearTimeout(timer);
    };
  }, [list, selection, scrollToTop, onArrivedUnfollowed]);
}
