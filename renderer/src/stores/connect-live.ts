import type { EngineEventShape } from '../../../server/api-client/event-follower.ts';
import type { AppStores } from './app-stores.ts';

/** The stores live events feed, and the session that says when there is a stream to follow. */
export type LiveStores = Pick<
  AppStores,
  | 'session'
  | 'live'
  | 'deliveries'
  | 'selection'
  | 'replay'
  | 'endpoints'
  | 'metrics'
  | 'refusals'
  | 'settings'
  | 'tunnel'
>;

/**
 * `routeEvent`'s default branch: it compiles only while the switch has a case for every
 * event type of the OpenAPI document (`EngineEvent`), so a type added to the engine's
 * event map fails the renderer's typecheck until it is routed. At run time an engine
 * newer than this page may still send a type it does not know; the document says
 * clients ignore those.
 */
function ignoreUnknown(_event: never): void {}

/** Sends one event to the stores it concerns. */
function routeEvent(stores: LiveStores, event: EngineEventShape): void {
  switch (event.event) {
    case 'log.created':
      stores.deliveries.getState().received(event.data);
      stores.metrics.getState().changed();
      return;
    case 'log.updated':
      // Whether the delivery can be explained travels with the event: nothing to read again.
      if (event.data.change === 'explainable' && event.data.explainable !== undefined)
        stores.selection.getState().explainable(event.data.logId, event.data.explainable);
      else void stores.selection.getState().updated(event.data.logId);
      return;
    case 'log.deleted':
      stores.deliveries.getState().deleted(event.data.logIds);
      stores.selection.getState().deleted(event.data.logIds);
      return;
    case 'replay.completed':
      stores.replay.getState().completed(event.data);
      stores.metrics.getState().changed();
      return;
    case 'forward.updated':
      stores.metrics.getState().changed();
      return;
    case 'refusals.counted':
      // The counter over the list, and the metrics' "rejected" deliveries.
      stores.refusals.getState().counted(event.data);
      stores.metrics.getState().changed();
      return;
    case 'endpoint.changed':
      void stores.endpoints.getState().load();
      return;
    case 'settings.changed':
      stores.settings.getState().changed();
      return;
    case 'tunnel.status':
      stores.tunnel.getState().changed(event.data);
      void stores.endpoints.getState().load(); // receiving URLs follow the public URL
      return;
    default:
      return ignoreUnknown(event);
  }
}

/** Every (re)connection: what happened while away is read again, so nothing is missed. */
function backfill(stores: LiveStores): void {
  void stores.endpoints.getState().load();
  void stores.deliveries.getState().load();
  void stores.replay.getState().refresh();
  void stores.refusals.getState().load();
  // An engine started again has a tunnel of its own (its status event went out before this page was back).
  void stores.tunnel.getState().load();
  stores.metrics.getState().changed();
}

/**
 * Routes the engine's live events (`GET /api/events`) to the stores while the page
 * is signed in: following starts when the session does and stops when it ends.
 * Called once per page (main.tsx); the function it returns stops it all.
 */
export function connectLive(stores: LiveStores): () => void {
  let following: AbortController | null = null;
  const sync = (signedIn: boolean): void => {
    if (signedIn && following === null) {
      following = new AbortController();
      void stores.live.getState().follow(
        following.signal,
        (event) => routeEvent(stores, event),
        () => backfill(stores),
      );
    } else if (!signedIn && following !== null) {
      following.abort();
      following = null;
    }
  };
  sync(stores.session.getState().status === 'signed-in');
  const unsubscribe = stores.session.subscribe((s) => sync(s.status === 'signed-in'));
  return () => {
    unsubscribe();
    sync(false);
  };
}
