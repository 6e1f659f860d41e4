import { useEffect } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { followReaction, type FollowView } from '../lib/follow-newest.ts';
import type { DeliveriesState } from '../stores/deliveries-store.ts';

/**
 * At most one delivery opened by following per this many milliseconds: under a flood
 * each would fetch its detail, so the newest is opened when the pause is over.
 */
export const FOLLOW_OPEN_EVERY_MS = 250;

const view = (s: DeliveriesState): FollowView => ({
  following: s.following,
  arrivals: s.arrivals,
  topId: s.logs[0]?.id ?? null,
  selectedId: s.selectedId,
});

/**
 * "Follow newest" (lib/follow-newest.ts) while the deliveries pane is shown: a
 * delivery that arrives, or pressing the button again, scrolls to the top and opens
 * the newest. Arrivals while it is off are reported to `onArrivedUnfollowed` so the
 * pane can keep the rows being read in place.
 */
export function useFollowNewest(
  store: StoreApi<DeliveriesState>,
  scrollToTop: () => void,
  onArrivedUnfollowed: (rows: number) => void,
): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastOpened = Number.NEGATIVE_INFINITY;
    const openNewest = (): void => {
      timer = null;
      const s = store.getState();
      const top = s.logs[0];
      if (!s.following || !top || top.id === s.selectedId) return;
      lastOpened = performance.now();
      void s.select(top.id, true);
    };
    const unsubscribe = store.subscribe((s, before) => {
      const reaction = followReaction(view(before), view(s));
      if (reaction.scrollToTop) scrollToTop();
      if (reaction.open !== null && timer === null) {
        const wait = FOLLOW_OPEN_EVERY_MS - (performance.now() - lastOpened);
        if (wait <= 0) openNewest();
        else timer = setTimeout(openNewest, wait);
      }
      if (!s.following && s.arrivals > before.arrivals) onArrivedUnfollowed(s.arrivals - before.arrivals);
    });
    return () => {
      unsubscribe();
      if (timer !== null) clearTimeout(timer);
    };
  }, [store, scrollToTop, onArrivedUnfollowed]);
}
