import { describe, expect, test } from 'vitest';
import { deliveriesHash, deliveriesRouteOf, viewOf } from './view-route.ts';

describe('viewOf', () => {
  test.each([
    ['#/metrics', 'metrics'],
    ['#/settings', 'settings'],
    ['', 'deliveries'],
    ['#/', 'deliveries'],
    ['#/metrics/extra', 'deliveries'],
    ['#/sign-in/abc', 'deliveries'],
  ])('%j shows the %s', (hash, view) => {
    expect(viewOf(hash)).toBe(view);
  });
});

describe('the deliveries address', () => {
  test.each([
    ['#/endpoints/ep_a1', { endpointId: 'ep_a1', logId: null }],
    ['#/endpoints/ep_a1/logs/log_01abc', { endpointId: 'ep_a1', logId: 'log_01abc' }],
    ['#/logs/log_01abc', { endpointId: null, logId: 'log_01abc' }],
  ])('%j names %j, and is its address', (hash, route) => {
    expect(deliveriesRouteOf(hash)).toEqual(route);
    expect(deliveriesHash(route)).toBe(hash);
  });

  test.each([
    '',
    '#/',
    '#/metrics',
    '#/settings',
    '#/sign-in/abc',
    '#/endpoints/',
    '#/logs/',
    '#/endpoints/a/b',
    '#/logs/a/b',
  ])('%j names no endpoint nor delivery', (hash) => {
    expect(deliveriesRouteOf(hash)).toBe(null);
  });

  test('All endpoints with nothing open has no address of its own; an address is never mistaken for another screen', () => {
    expect(deliveriesHash({ endpointId: null, logId: null })).toBe('');
    expect(viewOf('#/endpoints/ep_a1/logs/log_1')).toBe('deliveries');
  });
});
