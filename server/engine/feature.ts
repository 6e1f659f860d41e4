import type { EndpointDependent } from '../endpoints/endpoint-dependents.ts';
import type { RouteSpec } from '../http/route.ts';
import type { DeliveryObserver } from '../receiver/delivery-observer.ts';
import type { FeatureMigrations, Migration } from '../store/store-types.ts';

/** Where the listeners ended up (ports may have been 0). */
export interface ListenerAddresses {
  apiUrl: string;
  receiverUrl: string;
  /** The tunnel client's own loopback listener (server/http/listeners.ts). */
  tunnelUrl: string;
}

/**
 * What each feature's factory (`server/<feature>/<feature>-feature.ts`) returns,
 * besides its service. The engine lists the features in dependency order, then
 * derives everything else from the list: the store's migrations, the API's
 * routes, the receiver's observers, the endpoint-deletion cascade and the
 * start/stop sequence.
 *
 * Factories do not import this type: the engine imports every feature, and the
 * logs and endpoints folders are below the receiver this type names. The engine
 * checks each factory's result against it with `listed`, misspelt parts included.
 */
export interface Feature extends EndpointDependent {
  /** Keys the feature's migrations in the store: part of the store's format, never renamed. */
  readonly name: string;
  /** Numbered 1, 2, 3...; may refer to tables of features earlier in the list. */
  readonly migrations?: readonly Migration[];
  readonly routes?: readonly RouteSpec[];
  /** Told of each delivery the receiver stores or refuses. */
  readonly observers?: readonly DeliveryObserver[];
  /** The store is loaded, the listeners not open yet: load caches, resume queues. In list order. */
  start?(): Promise<void>;
  /** The listeners are up. In list order. */
  online?(at: ListenerAddresses): Promise<void>;
  /** The engine is stopping and the listeners still open. In reverse order. */
  offline?(): Promise<void>;
  /** The listeners are closed, the store still open. In reverse order. */
  stop?(): Promise<void>;
}

/** Parts a factory may return besides Feature's: what other features and the engine use. */
type Extras = 'service' | 'dependents' | 'page';

/** Passes a factory's result through unchanged; a part Feature does not name (`endpointDelete`) does not compile. */
export function listed<F extends Feature>(feature: F & Record<Exclude<keyof F, keyof Feature | Extras>, never>): F {
  return feature;
}

/** The store's migration list: the features' own, in list order. */
export function migrationsOf(features: readonly Feature[]): FeatureMigrations[] {
  return features.flatMap((f) => (f.migrations ? [{ feature: f.name, migrations: f.migrations }] : []));
}
