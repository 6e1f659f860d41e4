import { useEffect } from 'react';
import { deliveriesHash, deliveriesRouteOf, VIEW_HASH } from '../../lib/view-route.ts';
import type { AppStores } from '../../stores/app-stores.ts';

/**
 * The address follows the endpoint chosen and the open delivery
 * (`#/endpoints/<id>/logs/<logId>`, lib/view-route.ts), and an address naming them
 * chooses and opens them: a reload, a bookmark, a link from a teammate's terminal.
 * An endpoint that no longer exists falls back to All endpoints when the endpoints
 * are known (endpoints-pane.tsx), as one deleted while shown does. Other addresses
 * (`#/metrics`) belong to other screens and are left alone; `#/` (the Deliveries
 * link) takes the address of what the screen shows.
 */
export function useDeepLink(stores: AppStores): void {
  useEffect(() => {
    const { deliveries, selection } = stores;
    const fromHash = (): void => {
      const route = deliveriesRouteOf(window.location.hash);
      if (route === null) return;
      if (route.endpointId !== deliveries.getState().filter.endpointId)
        void deliveries.getState().setFilter({ endpointId: route.endpointId });
      if (route.logId !== null && route.logId !== selection.getState().selectedId)
        void selection.getState().select(route.logId);
    };
    const toHash = (): void => {
      const hash = window.location.hash;
      if (hash !== '' && hash !== VIEW_HASH.deliveries && deliveriesRouteOf(hash) === null) return;
      const next = deliveriesHash({
        endpointId: deliveries.getState().filter.endpointId,
        logId: selection.getState().selectedId,
      });
      // `#/` and no fragment both name All endpoints with nothing open.
      if (next === '' ? hash === '' || hash === VIEW_HASH.deliveries : next === hash) return;
      window.history.replaceState(null, '', next === '' ? window.location.pathname : next);
    };
    const onHashChange = (): void => {
      fromHash();
      toHash();
    };
    fromHash();
    window.addEventListener('hashchange', onHashChange);
    const unsubscribeSelection = selection.subscribe((s, before) => {
      if (s.selectedId !== before.selectedId) toHash();
    });
    const unsubscribeList = deliveries.subscribe((s, before) => {
      if (s.filter.endpointId !== before.filter.endpointId) toHash();
    });
    return () => {
      window.removeEventListener('hashchange', onHashChange);
      unsubscribeSelection();
      unsubscribeList();
    };
  }, [stores]);
}
