import { useEffect } from 'react';
import { shortcutFor, type ShortcutAction } from '../../lib/keyboard.ts';
import type { AppStores } from '../../stores/app-stores.ts';

const isField = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

function run(action: ShortcutAction, s: AppStores): void {
  const d = s.deliveries.getState();
  const open = s.selection.getState();
  const ui = s.ui.getState();
  // The row, not the detail: the detail may still be on its way when a key follows j/k.
  const current = d.logs.find((l) => l.id === open.selectedId) ?? open.detail;
  const move = (by: number): void => {
    const i = d.logs.findIndex((l) => l.id === open.selectedId);
    const next = d.logs[i === -1 ? 0 : Math.min(d.logs.length - 1, Math.max(0, i + by))];
    if (next) void open.select(next.id);
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
      if (current) ui.setPanel(action);
      return;
    case 'explain':
      if (current && open.detail?.id === current.id && open.detail.explainable) ui.setPanel('explain');
      return;
    case 'pin':
      if (current) void d.pin(current.id, !current.pinned);
      return;
    case 'help':
      return ui.setShortcutsOpen(true);
    case 'close':
      if (ui.shortcutsOpen) ui.setShortcutsOpen(false);
      else ui.setPanel('none');
      return;
  }
}

/** The inspector's keyboard (see lib/keyboard.ts for the keys). */
export function useShortcuts(stores: AppStores): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const action = shortcutFor(e, isField(e.target));
      if (action === null) return;
      // "/" would otherwise type into the search box it focuses.
      if (action === 'search' || action === 'next' || action === 'previous') e.preventDefault();
      run(action, stores);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stores]);
}
