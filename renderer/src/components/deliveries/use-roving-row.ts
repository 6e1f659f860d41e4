import { useCallback, useEffect, type KeyboardEvent } from 'react';
import type { LogSummary } from '../../api/client.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';

export interface RovingRow {
  /** The row Tab reaches (the open delivery, else the first): the list is one tab stop. */
  currentId: string | null;
  /** Whether the current row is asked to take focus (ui-store's focus request 'list'). */
  takeFocus: boolean;
  focusTaken: () => void;
  /** The search box's keydown: Esc leaves it for the list, keeping what was typed. */
  leaveSearch: (e: KeyboardEvent<HTMLInputElement>) => void;
}

/** The row Tab reaches: the open delivery when it is listed, else the first; -1 for an empty list. */
export function tabStopIndex(logs: readonly LogSummary[], selectedId: string | null): number {
  const selectedIndex = selectedId === null ? -1 : logs.findIndex((l) => l.id === selectedId);
  return selectedIndex === -1 && logs.length > 0 ? 0 : selectedIndex;
}

/**
 * The deliveries list's roving focus. When focus is asked back to the list (j/k on
 * a row, Esc in a panel or in search), the current row is scrolled into the page
 * and takes focus once it is drawn (DeliveryRow's effect).
 */
export function useRovingRow(
  logs: readonly LogSummary[],
  selectedId: string | null,
  scrollToIndex: (index: number) => void,
): RovingRow {
  const { ui } = useStores();
  const takeFocus = useSlice(ui, (s) => s.focusRequest === 'list');
  const index = tabStopIndex(logs, selectedId);
  const currentId = index === -1 ? null : logs[index]!.id;

  useEffect(() => {
    if (!takeFocus) return;
    // No row to go to: drop the request, or the first delivery to arrive would take focus unasked.
    if (index === -1) ui.getState().focusTaken();
    else scrollToIndex(index);
  }, [takeFocus, index, scrollToIndex, ui]);

  const focusTaken = useCallback(() => ui.getState().focusTaken(), [ui]);
  const leaveSearch = useCallback(
    (e: KeyboardEvent<HTMLInputElement>) => {
      if (e.key !== 'Escape') return;
      // Chrome's own Esc would empty a search box: the search typed stays.
      e.preventDefault();
      e.currentTarget.blur();
      ui.getState().requestFocus('list');
    },
    [ui],
  );
  return { currentId, takeFocus, focusTaken, leaveSearch };
}
