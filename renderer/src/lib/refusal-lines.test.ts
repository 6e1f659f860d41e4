import { describe, expect, test } from 'vitest';
import { refusalLines, type Refusals } from './refusal-lines.ts';

const COUNTS: Refusals = {
  window: '1m',
  from: '2026-03-01T10:41:00.000Z',
  to: '2026-03-01T10:43:00.000Z',
  total: 438,
  lastAt: '2026-03-01T10:42:31.000Z',
  reasons: [
    { reason: 'rate_limited', count: 431, lastAt: '2026-03-01T10:42:31.000Z' },
    { reason: 'endpoint_inactive', count: 5, lastAt: '2026-03-01T10:42:10.000Z' },
    { reason: 'payload_too_large', count: 2, lastAt: '2026-03-01T10:41:50.000Z' },
  ],
  endpoints: [
    {
      endpointId: 'ep_orders',
      total: 433,
      lastAt: '2026-03-01T10:42:31.000Z',
      reasons: [
        { reason: 'rate_limited', count: 431, lastAt: '2026-03-01T10:42:31.000Z' },
        { reason: 'payload_too_large', count: 2, lastAt: '2026-03-01T10:41:50.000Z' },
      ],
    },
    {
      endpointId: 'ep_legacy',
      total: 5,
      lastAt: '2026-03-01T10:42:10.000Z',
      reasons: [{ reason: 'endpoint_inactive', count: 5, lastAt: '2026-03-01T10:42:10.000Z' }],
    },
  ],
};
const NAMES = new Map([
  ['ep_orders', 'Orders'],
  ['ep_legacy', 'Legacy'],
]);

describe('the refusals summary over the list', () => {
  test('All endpoints: one line per reason, most first, each naming its endpoints', () => {
    expect(refusalLines(COUNTS, null, NAMES)).toEqual([
      {
        reason: 'rate_limited',
        count: 431,
        text: '431 refused by the rate limit in the last minute (Orders)',
        lastAt: '2026-03-01T10:42:31.000Z',
      },
      {
        reason: 'endpoint_inactive',
        count: 5,
        text: '5 refused because the endpoint is switched off in the last minute (Legacy)',
        lastAt: '2026-03-01T10:42:10.000Z',
      },
      {
        reason: 'payload_too_large',
        count: 2,
        text: '2 refused as larger than the body limit in the last minute (Orders)',
        lastAt: '2026-03-01T10:41:50.000Z',
      },
    ]);
  });

  test('one endpoint: its own counts only, unnamed; an endpoint with none, or no counts yet: nothing', () => {
    expect(refusalLines(COUNTS, 'ep_orders', NAMES).map((l) => l.text)).toEqual([
      '431 refused by the rate limit in the last minute',
      '2 refused as larger than the body limit in the last minute',
    ]);
    expect(refusalLines(COUNTS, 'ep_quiet', NAMES)).toEqual([]);
    expect(refusalLines(null, null, NAMES)).toEqual([]);
  });

  test('an endpoint not known yet is named by its id; past three names, how many more', () => {
    const many: Refusals = {
      ...COUNTS,
      reasons: [COUNTS.reasons[0]!],
      endpoints: ['ep_a', 'ep_b', 'ep_c', 'ep_d', 'ep_e'].map((endpointId) => ({
        endpointId,
        total: 1,
        lastAt: COUNTS.lastAt!,
        reasons: [{ reason: 'rate_limited', count: 1, lastAt: COUNTS.lastAt! }],
      })),
    };
    const names = new Map([
      ['ep_a', 'A'],
      ['ep_b', 'B'],
    ]);
    expect(refusalLines(many, null, names)[0]?.text).toBe(
      '431 refused by the rate limit in the last minute (A, B, ep_c and 2 more)',
    );
  });

  test('a reason this page does not know (a newer engine) is left out', () => {
    const newer = {
      ...COUNTS,
      reasons: [{ reason: 'quota_exceeded', count: 9, lastAt: COUNTS.lastAt }, ...COUNTS.reasons.slice(1, 2)],
    } as unknown as Refusals;
    expect(refusalLines(newer, null, NAMES).map((l) => l.reason)).toEqual(['endpoint_inactive']);
  });
});
