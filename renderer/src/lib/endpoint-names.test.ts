import { describe, expect, test } from 'vitest';
import { DELETED_ENDPOINT, endpointName } from './endpoint-names.ts';

const endpoints = [
  { id: 'ep_a', name: 'Stripe payments' },
  { id: 'ep_b', name: 'GitHub' },
];

describe("a row's endpoint name", () => {
  test("is the endpoint's name; once the endpoints are known, one missing is deleted; before, none is guessed", () => {
    expect(endpointName(endpoints, true, 'ep_b')).toBe('GitHub');
    expect(endpointName(endpoints, true, 'ep_gone')).toBe(DELETED_ENDPOINT);
    expect(DELETED_ENDPOINT).toBe('Deleted endpoint');
    expect(endpointName([], false, 'ep_a')).toBe(undefined);
    expect(endpointName(endpoints, false, 'ep_a')).toBe('Stripe payments');
  });
});
