import { useEffect } from 'react';
import type { AppStores } from '../stores/app-stores.ts';

/**
 * "(3) Hookscope" while the window is in the background and deliveries arrive;
 * back to "Hookscope" once it is looked at again.
 */
export function useUnreadTitle(stores: AppStores): void {
  useEffect(() => {
    let unread = 0;
    const show = (): void => {
      document.title = unread > 0 ? `(${unread}) Hookscope` : 'Hookscope';
    };
    const unsubscribe = stores.deliveries.subscribe((s, before) => {
      const fresh = s.logs.filter((l) => !before.logs.some((b) => b.id === l.id)).length;
      if (fresh > 0 && document.visibilityState === 'hidden' && s.filter === before.filter) {
        unread += fresh;
        show();
      }
    });
    const onVisible = (): void => {
      if (document.visibilityState === 'visible') {
        unread = 0;
        show();
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      unsubscribe();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [stores]);
}
