import { useSyncExternalStore } from 'react';
import { viewOf, type View } from '../../lib/view-route.ts';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** The screen the address bar names (`#/metrics`), followed as links and Back change it. */
export function useView(): View {
  return useSyncExternalStore(subscribe, () => viewOf(window.location.hash));
}
