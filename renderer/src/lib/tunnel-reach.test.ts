import { describe, expect, test } from 'vitest';
import type { TunnelStatus } from '../api/client.ts';
import { reachWarning, tunnelLine } from './tunnel-reach.ts';

const NOW = Date.parse('2026-01-01T10:00:00.000Z');
const at = (offsetMs: number): string => new Date(NOW + offsetMs).toISOString();
const status = (state: TunnelStatus['state'], more: Partial<TunnelStatus> = {}) => ({
  state,
  retryAt: null,
  checkedAt: null,
  url: null,
  ...more,
});

describe('tunnelLine: what the state means for senders, in one line', () => {
  test.each([
    ['disabled', {}, 'off', 'Tunnel off: internet senders cannot reach local URLs'],
    ['connecting', {}, 'warn', 'Tunnel connecting: internet senders cannot reach the public URL yet'],
    ['online', { checkedAt: at(-20_000) }, 'ok', 'Public URL answering (checked 20 s ago)'],
    ['online', { checkedAt: at(-2_000) }, 'ok', 'Public URL answering (checked just now)'],
    ['online', {}, 'ok', 'Public URL answering'],
    ['degraded', { checkedAt: at(-1_000) }, 'warn', 'Tunnel failing: senders may get errors; checking again'],
    ['offline', { retryAt: at(12_000) }, 'bad', 'Internet senders cannot reach the public URL now; retrying in 12 s'],
    // A part of a second counts as one: the countdown never shows 0 while a wait remains.
    ['offline', { retryAt: at(11_200) }, 'bad', 'Internet senders cannot reach the public URL now; retrying in 12 s'],
    ['error', { retryAt: at(800) }, 'bad', 'Internet senders cannot reach the public URL now; retrying in 1 s'],
    ['offline', { retryAt: at(-500) }, 'bad', 'Internet senders cannot reach the public URL now; retrying now'],
    ['error', {}, 'bad', 'Internet senders cannot reach the public URL now; retrying now'],
  ] as const)('%s %j: %s "%s"', (state, more, tone, text) => {
    expect(tunnelLine(status(state, more), NOW)).toEqual({ tone, text });
  });
});

describe('reachWarning: the endpoint pane warns when internet senders cannot reach the URL it shows', () => {
  const local = { publicUrl: null };
  const viaTunnel = { publicUrl: 'https://quiet-fox.loca.lt/webhook/ep_1' };
  test.each([
    [local, status('disabled'), 'Internet senders cannot reach this URL: it is local while the tunnel is off.'],
    [local, status('connecting'), 'Internet senders cannot reach this URL: it is local until the tunnel connects.'],
    [local, status('offline'), 'Internet senders cannot reach this URL: it is local while the tunnel is down.'],
    [local, status('error'), 'Internet senders cannot reach this URL: it is local while the tunnel is down.'],
    [local, null, 'Internet senders cannot reach this URL: it is this machine’s local address.'],
    [
      viaTunnel,
      status('degraded', { url: 'https://quiet-fox.loca.lt' }),
      'Internet senders may not reach this URL now: the tunnel’s last check through it failed.',
    ],
    [viaTunnel, status('online', { url: 'https://quiet-fox.loca.lt' }), null],
    // A public URL from configuration (a team server's --public-url): no tunnel to fail.
    [{ publicUrl: 'https://hooks.example.com/webhook/ep_1' }, status('disabled'), null],
    [
      { publicUrl: 'https://hooks.example.com/webhook/ep_1' },
      status('degraded', { url: 'https://quiet-fox.loca.lt' }),
      null,
    ],
  ])('%j with %j', (endpoint, tunnel, words) => {
    expect(reachWarning(endpoint, tunnel)).toBe(words);
  });
});
