import { useCallback, useState } from 'react';
import { unseenAbove } from '../../lib/follow-newest.ts';

export interface NewArrivals {
  /** Deliveries that arrived above the view while the list was scrolled down, still hidden there. */
  count: number;
  /** Rows added on top while the list was scrolled down (the pane kept the place, so they are above the view). */
  arrived: (rows: number) => void;
  /** The list was scrolled: rows scrolled back into view are no longer new. */
  scrolled: (scrollTop: number) => void;
}

/**
 * What the "N new" bar counts (lib/follow-newest.ts `unseenAbove`). `list` names the
 * list shown (its filter): another list starts with none new.
 */
export function useNewArrivals(rowHeight: number, list: unknown): NewArrivals {
  const [state, setState] = useState({ count: 0, list });
  // Reset while rendering, not in an effect: the bar of the previous list is never drawn over the new one.
  if (state.list !== list) setState({ count: 0, list });
  const arrived = useCallback((rows: number) => setState((s) => ({ ...s, count: s.count + rows })), []);
  const scrolled = useCallback(
    (scrollTop: number) =>
      setState((s) => {
        const count = unseenAbove(s.count, scrollTop, rowHeight);
        return count === s.count ? s : { ...s, count };
      }),
    [rowHeight],
  );
  return { count: state.list === list ? state.count : 0, arrived, scrolled };
}
