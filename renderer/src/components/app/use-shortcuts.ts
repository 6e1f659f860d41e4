import { useEffect } from 'react';
import { detailPart, keyPlace, shortcutFor, type KeyPlace, type ShortcutAction } from '../../lib/keyboard.ts';
import type { AppStores } from '../../stores/app-stores.ts';

function run(action: ShortcutAction, place: KeyPlace, target: EventTarget | null, s: AppStores): void {
  const d = s.deliveries.getState();
  const open = s.selection.getState();
  const ui = s.ui.getState();
  // The row, not the detail: the detail may still be on its way when a key follows j/k.
  const current = d.logs.find((l) => l.id === open.selectedId) ?? open.detail;
  // The keys of the buttons disabled while the engine is stopped do nothing then (the alert says why):
  // a panel would only ask the stopped engine and add an error notice.
  const stopped = s.live.getState().state === 'stopped';
  const move = (by: number): void => {
    const i = d.logs.findIndex((l) => l.id === open.selectedId);
    const next = d.logs[i === -1 ? 0 : Math.min(d.logs.length - 1, Math.max(0, i + by))];
    if (next) void open.select(next.id);
    // Focus on a row moves with the open delivery: the list is one tab stop, its current row.
    if (place === 'list') ui.requestFocus('list');
  };
  switch (action) {
    case 'next':
      return move(1);
    case 'previous':
      return move(-1);
    case 'open':
      if (open.selectedId === null && d.logs[0]) void open.select(d.logs[0].id);
      document.querySelector<HTMLElement>('[aria-label="Delivery"]')?.focus();
      return;
    case 'search':
      document.querySelector<HTMLInputElement>('input[aria-label="Search deliveries"]')?.focus();
      return;
    case 'replay':
    case 'edit':
    case 'share':
      if (current && !stopped) ui.setPanel(action);
      return;
    case 'explain':
      if (current && !stopped && open.detail?.id === current.id && open.detail.explainable) ui.setPanel('explain');
      return;
    case 'pin':
      if (current && !stopped) void d.pin(current.id, !current.pinned);
      return;
    case 'help':
      return ui.setShortcutsOpen(true);
    case 'close': {
      if (ui.shortcutsOpen) return ui.setShortcutsOpen(false);
      // Esc in another dialog or form (an endpoint's settings, the body's find box) is theirs.
      const part = detailPart(target);
      if (place === 'dialog' || (place === 'field' && part !== 'panel')) return;
      if (ui.panel !== 'none') ui.setPanel('none');
      else if (part === null) return;
      // Back to the list's current row, from the panel just closed or from the detail.
      ui.requestFocus('list');
      return;
    }
  }
}

/** The inspector's keyboard (see lib/keyboard.ts for the keys and where each applies). */
export function useShortcuts(stores: AppStores): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const place = keyPlace(e.target);
      const action = shortcutFor(e, place);
      if (action === null) return;
      // "/" would otherwise type into the search box it focuses, the arrows scroll, Enter click the row.
      if (action === 'search' || action === 'next' || action === 'previous' || action === 'open') e.preventDefault();
      run(action, place, e.target, stores);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stores]);
}
