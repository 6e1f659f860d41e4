import { describe, expect, test } from 'vitest';
import { ALL_DELIVERIES } from './delivery-filter.ts';
import { onlyEndpointFilter, tryItCurl } from './onboarding-steps.ts';

describe('onboarding helpers', () => {
  test('the ready cURL command posts JSON to the URL', () => {
    expect(tryItCurl('http://127.0.0.1:4681/webhook/ep_abc')).toBe(
      `curl -X POST 'http://127.0.0.1:4681/webhook/ep_abc' -H 'content-type: application/json' -d '{"hello":"world"}'`,
    );
  });

  test('an empty list means "nothing yet" only when nothing but the endpoint filters it', () => {
    expect(onlyEndpointFilter(ALL_DELIVERIES)).toBe(true);
    expect(onlyEndpointFilter({ ...ALL_DELIVERIES, endpointId: 'ep_1' })).toBe(true);
    expect(onlyEndpointFilter({ ...ALL_DELIVERIES, search: 'x' })).toBe(false);
    expect(onlyEndpointFilter({ ...ALL_DELIVERIES, status: 'failed' })).toBe(false);
  });
});
