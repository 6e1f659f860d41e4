import type { EndpointRecord } from './endpoint-types.ts';

/** A feature that keeps something per endpoint, or follows endpoints' settings. */
export interface EndpointDependent {
  /** Removes what the feature keeps for the endpoint; the endpoint itself goes after every dependent. */
  endpointDeleted?(accountId: string, endpointId: string): Promise<void> | void;
  /** Told after an update was stored (the forward queue follows forwardUrl changes). */
  endpointUpdated?(before: EndpointRecord, after: EndpointRecord): Promise<void> | void;
}

/**
 * The features an endpoint's deletion and updates reach. They are built after
 * the endpoints feature (they read endpoints), so the engine hands them over
 * once its feature list is complete, before any listener opens: requests, the
 * only callers, cannot come earlier.
 */
export class EndpointDependents {
  private dependents: readonly EndpointDependent[] | null = null;

  /**
   * Takes the engine's features in list order. Deletion then runs them last
   * first, like ON DELETE CASCADE: a share or an analysis goes before its log.
   */
  set(features: readonly EndpointDependent[]): void {
    this.dependents = [...features].reverse();
  }

  async deleted(accountId: string, endpointId: string): Promise<void> {
    for (const d of this.list()) await d.endpointDeleted?.(accountId, endpointId);
  }

  async updated(before: EndpointRecord, after: EndpointRecord): Promise<void> {
    for (const d of this.list()) await d.endpointUpdated?.(before, after);
  }

  private list(): readonly EndpointDependent[] {
    // An endpoint deleted before the engine finished wiring would leave its logs behind: refuse instead.
    if (!this.dependents) throw new Error('endpoint dependents are not set yet');
    return this.dependents;
  }
}
