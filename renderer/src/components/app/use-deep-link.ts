import { useEffect } from 'react';
import { logIdFromHash } from '../../lib/keyboard.ts';
import type { AppStores } from '../../stores/app-stores.ts';

/**
 * The address follows the open delivery (`#/logs/<logId>`), and an address
 * naming one opens it: a reload, a bookmark, a link from a teammate's terminal.
 * Other addresses (`#/metrics`) belong to other screens and are left alone.
 */
export function useDeepLink(stores: AppStores): void {
  useEffect(() => {
    const fromHash = (): void => {
      const id = logIdFromHash(window.location.hash);
      if (id !== null && id !== stores.selection.getState().selectedId) void stores.selection.getState().select(id);
    };
    fromHash();
    window.addEventListener('hashchange', fromHash);
    const unsubscribe = stores.selection.subscribe((s, before) => {
      if (s.selectedId === before.selectedId) return;
      const hash = window.location.hash;
      if (hash !== '' && logIdFromHash(hash) === null) return;
      const next = s.selectedId === null ? window.location.pathname : `#/logs/${s.selectedId}`;
      window.history.replaceState(null, '', next);
    });
    return () => {
      window.removeEventListener('hashchange', fromHash);
      unsubscribe();
    };
  }, [stores]);
}
