import { ALL_DELIVERIES, type DeliveryFilter } from './delivery-filter.ts';
import { shellArg } from '../../../server/api-client/shared.ts';

/** The name the one-step "Create endpoint" suggests. */
export const FIRST_ENDPOINT_NAME = 'My first endpoint';

/** A ready command that posts a small JSON body to the endpoint's receiving URL. */
export function tryItCurl(url: string): string {
  return `curl -X POST ${shellArg(url)} -H 'content-type: application/json' -d '{"hello":"world"}'`;
}

/**
 * Whether the list is filtered by nothing but (maybe) its endpoint: only then does
 * an empty list mean "nothing arrived yet" rather than "nothing matches".
 */
export function onlyEndpointFilter(filter: DeliveryFilter): boolean {
  const all: Record<string, unknown> = { ...ALL_DELIVERIES };
  return Object.entries(filter).every(([key, value]) => key === 'endpointId' || value === all[key]);
}
