import type { TunnelConfig } from '../config/config.ts';
/**
 * The tunnel's states, as `GET /api/tunnel` and the `tunnel.status` event report them:
 * - disabled: switched off;
 * - connecting: an attempt to open the tunnel is under way;
 * - online: the last round trip through the public URL reached this engine;
 * - degraded: the tunnel is open but its last round trip failed (lastError says
 *   how), so senders may be failing now; the engine checks again within 2 s and
 *   reconnects when the checks keep failing;
 * - offline: the tunnel dropped or could not be reached (network, server down,
 *   timeout); the engine retries with backoff;
 * - error: the tunnel server answered but refused (or answered something that is
 *   not a localtunnel server); the engine still retries with the same backoff.
 */
export const TUNNEL_STATES = ['disabled', 'connecting', 'online', 'degraded', 'offline', 'error'] as const;
export type TunnelState = (typeof TUNNEL_STATES)[number];

/** What one provider (localtunnel today) needs to open a tunnel. */
export interface ExposeOptions {
  /** Tunnel server, e.g. https://localtunnel.me */
  host: string;
  /** Subdomain to ask for; the server may hand out another one when it is taken. */
  subdomain: string;
  /**
   * Where the tunnel delivers, on localhost: the tunnel's own listener (the
   * receiver's routes), never the API listener. The client connects as
   * `localhost` so that the sender's Host header reaches the log unchanged.
   */
  localPort: number;
}

/** One open tunnel. The supervisor holds at most one at a time. */
export interface TunnelLink {
  /** The public base URL the server handed out, without a trailing slash. */
  readonly url: string;
  /** The subdomain the server actually assigned. */
  readonly subdomain: string;
  /** Called once when the link fails on its own (the server forgot it, sockets refused). */
  onDrop(listener: (reason: string) => void): void;
  /** Sockets to the tunnel server still open (0 after close). */
  socketCount(): number;
  /** Closes every socket and timer of this link; resolves once they are gone (bounded). */
  close(): Promise<void>;
}

/** The small interface a tunnel provider implements (`expose`, then the link's `close`). */
export interface TunnelProvider {
  /** Opens a tunnel, or rejects; an abort of `signal` cancels the attempt and leaves nothing open. */
  expose(opts: ExposeOptions, signal: AbortSignal): Promise<TunnelLink>;
}

/** The server answered the registration with a refusal (4xx) or with something that is not a localtunnel answer. */
export class TunnelRefusedError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'TunnelRefusedError';
  }
}

/** The supervisor's own status, before the service adds what the API shows. */
export interface SupervisorStatus {
  state: TunnelState;
  /** Public base URL while online, else null. */
  url: string | null;
  /** When the current state began (ms since the epoch). */
  since: number;
  lastError: string | null;
  /** Connection attempts since the tunnel was enabled or last dropped. */
  attempts: number;
  host: string;
  /** The subdomain in use while online, else the one being asked for. */
  subdomain: string | null;
  /** When the last round trip through the public URL ended (ms since the epoch), or null. */
  checkedAt: number | null;
  /** How long that round trip took when it reached this engine; null when it failed. */
  roundTripMs: number | null;
  /** When the next connection attempt starts (offline, error), else null. */
  retryAt: number | null;
}

/** The timings of the tunnel's configuration (documented there). */
export type TunnelTimings = Pick<
  TunnelConfig,
  'openTimeoutMs' | 'probeIntervalMs' | 'probeTimeoutMs' | 'probeFailures' | 'backoffMinMs' | 'backoffMaxMs'
>;
