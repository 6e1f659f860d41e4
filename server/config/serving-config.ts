import { isIP } from 'node:net';
import { ConfigError } from '../errors/config-error.ts';

/**
 * The settings that make `hookscope serve` a team server (README "Team server"):
 * where the listeners bind, the public URL a reverse proxy answers at, the
 * owner account and the sign-in rate limit. Read by resolveConfig (config.ts).
 */

/** Sign-in attempts per minute per source address when the API listens off loopback. */
export const OFF_LOOPBACK_SIGN_IN_PER_MINUTE = 20;

/** Whether binding to `host` keeps a listener on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * A configured public URL is served by the team's own proxy; the tunnel gives a
 * laptop one through localtunnel. With both, receiving URLs and share links
 * would change under the user whenever the tunnel came and went.
 */
export function refuseTunnelWithPublicUrl(publicUrl: string | null, tunnelEnabled: boolean): void {
  if (publicUrl !== null && tunnelEnabled) {
    throw new ConfigError(
      `--public-url (${publicUrl}) and --tunnel cannot be used together: a team server's public URL is served by your ` +
        'own reverse proxy, the tunnel is for a laptop. Use one of them (the tunnel is also on when config.json says tunnel.enabled).',
      '--public-url',
    );
  }
}

/** What `serve` warns about at start: settings that work, but not as a team probably expects. */
export function servingWarnings(c: { apiHost: string; receiverHost: string; publicBaseUrl: string | null }): string[] {
  if (c.publicBaseUrl !== null) return [];
  const out: string[] = [];
  if (!isLoopbackHost(c.apiHost)) {
    out.push(
      `Warning: the API listens on ${c.apiHost}, but its Host check will refuse anything but loopback names ` +
        '(127.0.0.1, localhost, [::1]) until --public-url is given.',
    );
  }
  if (!isLoopbackHost(c.receiverHost)) {
    out.push(
      `Warning: the receiver listens on ${c.receiverHost}; receiving URLs and share links name that address until --public-url is given.`,
    );
  }
  return out;
}
