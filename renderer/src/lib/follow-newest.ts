/**
 * "Follow newest", as the deliveries list does it. While it is on, a delivery that
 * arrives scrolls the list to the top and opens there (webhook.site's habit: the
 * newest is what a user watching the list wants to read). Any navigation of the
 * user's own (a row clicked, j/k, a deep link, scrolling away from the top) turns it
 * off, so a delivery being read is never replaced under the reader; pressing the
 * button again jumps back to the newest and follows on. While following, whatever is
 * open was opened by following, so opening the newest never hides a user's choice.
 */

/** What following looks at: the store's state before and after a change. */
export interface FollowView {
  following: boolean;
  /** Counts deliveries added at the top of the list (live or found by a reload). */
  arrivals: number;
  /** The list's first row. */
  topId: string | null;
  selectedId: string | null;
}

export interface FollowReaction {
  scrollToTop: boolean;
  /** The delivery to open, or null (nothing to open, or it is open already). */
  open: string | null;
}

const NONE: FollowReaction = { scrollToTop: false, open: null };

/** What following does about a change of the list: only when it is on and a delivery arrived or it was just resumed. */
export function followReaction(before: FollowView, now: FollowView): FollowReaction {
  if (!now.following) return NONE;
  const resumed = !before.following;
  if (!resumed && now.arrivals === before.arrivals) return NONE;
  return { scrollToTop: true, open: now.topId !== null && now.topId !== now.selectedId ? now.topId : null };
}

/**
 * Scrolled away from the top, by the user: more than half a row (a trackpad's
 * jitter, or the list settling, is not a decision to read elsewhere).
 */
export function scrolledAway(scrollTop: number, rowHeight: number): boolean {
  return scrollTop > rowHeight / 2;
}

/**
 * "N new" while the list is scrolled down: of the deliveries that arrived above the
 * rows being read, those still hidden above the view. Scrolling up reveals them one
 * row at a time (never more than the rows above the view), and back at the top
 * there are none.
 */
export function unseenAbove(unseen: number, scrollTop: number, rowHeight: number): number {
  return scrolledAway(scrollTop, rowHeight) ? Math.min(unseen, Math.round(scrollTop / rowHeight)) : 0;
}
