import type { Endpoint, TunnelStatus } from '../api/client.ts';
import { relativeTime } from './relative-time.ts';

/** How the line reads at a glance: fine, at risk, down, or simply off. */
export type TunnelTone = 'ok' | 'warn' | 'bad' | 'off';

export interface TunnelLine {
  tone: TunnelTone;
  text: string;
}

/** Whole seconds from now until `iso`, never below 0 (the engine's clock and the page's may differ a little). */
const secondsUntil = (iso: string, nowMs: number): number => Math.max(0, Math.ceil((Date.parse(iso) - nowMs) / 1000));

/**
 * What the tunnel's state means for senders, in one short line, with the retry
 * countdown while it is down (`retryAt`) and the age of the last round trip while it
 * works (`checkedAt`). The state's own word is the top bar's pill; this says the consequence.
 */
export function tunnelLine(status: Pick<TunnelStatus, 'state' | 'retryAt' | 'checkedAt'>, nowMs: number): TunnelLine {
  switch (status.state) {
    case 'disabled':
      return { tone: 'off', text: 'Tunnel off: internet senders cannot reach local URLs' };
    case 'connecting':
      return { tone: 'warn', text: 'Tunnel connecting: internet senders cannot reach the public URL yet' };
    case 'online':
      return {
        tone: 'ok',
        text:
          status.checkedAt === null
            ? 'Public URL answering'
            : `Public URL answering (checked ${relativeTime(Date.parse(status.checkedAt), nowMs)})`,
      };
    case 'degraded':
      // The engine checks again within 2 s (docs/API.md "Tunnel"): no countdown worth showing.
      return { tone: 'warn', text: 'Tunnel failing: senders may get errors; checking again' };
    case 'offline':
    case 'error': {
      const wait = status.retryAt === null ? 0 : secondsUntil(status.retryAt, nowMs);
      return {
        tone: 'bad',
        text: `Internet senders cannot reach the public URL now; ${wait > 0 ? `retrying in ${wait} s` : 'retrying now'}`,
      };
    }
  }
}

/** Why the local URL is what the pane shows, by tunnel state. */
const LOCAL_BECAUSE: Record<TunnelStatus['state'], string> = {
  disabled: 'it is local while the tunnel is off',
  connecting: 'it is local until the tunnel connects',
  offline: 'it is local while the tunnel is down',
  error: 'it is local while the tunnel is down',
  // The endpoint was read before the tunnel came up; the next read brings its public URL.
  online: 'it is this machine’s local address',
  degraded: 'it is this machine’s local address',
};

/**
 * The endpoint pane's warning when the URL it shows cannot be reached from the
 * internet: the local URL (no public one: tunnel off, connecting or down), or a
 * public URL through a tunnel whose last round trip failed. A public URL set by
 * configuration (a team server's `--public-url`) has no tunnel to fail: no warning.
 */
export function reachWarning(
  endpoint: Pick<Endpoint, 'publicUrl'>,
  tunnel: Pick<TunnelStatus, 'state' | 'url'> | null,
): string | null {
  if (endpoint.publicUrl === null) {
    const because = tunnel === null ? 'it is this machine’s local address' : LOCAL_BECAUSE[tunnel.state];
    return `Internet senders cannot reach this URL: ${because}.`;
  }
  if (tunnel?.state === 'degraded' && tunnel.url !== null && endpoint.publicUrl.startsWith(`${tunnel.url}/`)) {
    return 'Internet senders may not reach this URL now: the tunnel’s last check through it failed.';
  }
  return null;
}
