import { useEffect } from 'react';
import type { AppStores } from '../../stores/app-stores.ts';

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
    // The store counts deliveries added on top (`arrivals`): rows from a next page or a
    // new filter are not news, and comparing whole lists of 10,000 rows on every change was slow.
    const unsubscribe = stores.deliveries.subscribe((s, before) => {
      const fresh = s.arrivals - before.arrivals;
      if (fresh > 0 && document.visibilityState === 'hidden') {
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
