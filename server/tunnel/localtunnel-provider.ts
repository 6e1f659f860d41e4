import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { isAbsoluteHttpUrl } from '../support/absolute-url.ts';
import { httpGet } from './http-get.ts';
import { TunnelRefusedError, type ExposeOptions, type TunnelLink, type TunnelProvider } from './tunnel-types.ts';

/** What the client hands its socket cluster (built by its own `_getInfo`). */
interface LocaltunnelInfo {
  name: string;
  url: string;
  max_conn: number;
}

/** The parts of `@n8n/localtunnel`'s Tunnel class this provider uses (the package types only the factory). */
interface LocaltunnelClient extends EventEmitter {
  closed: boolean;
  url?: string;
  tunnelCluster?: EventEmitter;
  _init(cb: (err: Error | null, info?: LocaltunnelInfo) => void): void;
  _getInfo(body: unknown): LocaltunnelInfo;
  open(cb: (err?: Error) => void): void;
  close(): void;
}
type LocaltunnelClientClass = new (opts: Record<string, unknown>) => LocaltunnelClient;

const require = createRequire(import.meta.url);

/** The registration answer of a localtunnel server (`GET <host>/<subdomain>`). */
interface Registration {
  id: string;
  port: number;
  url: string;
  max_conn_count?: number;
  ip?: string;
}

export interface LocaltunnelProviderOptions {
  /** How long the registration request may take. */
  requestTimeoutMs: number;
  /** How long close() waits for the sockets to be gone. */
  closeWaitMs?: number;
}

/**
 * localtunnel as the tunnel provider, using `@n8n/localtunnel`'s socket cluster
 * but not its opening step. The client's `_init` asks the server for a tunnel
 * and, on any failure (server down, 4xx, 5xx), retries every second forever on a
 * timer that close() does not stop: its opening promise never settles while the
 * server is unreachable, and an abandoned client keeps polling. So this provider
 * registers with one bounded, abortable request and hands the answer to the
 * client (its `_init` replaced on the instance), which then opens its sockets as
 * usual. Everything after registration (socket cluster, reconnecting dead
 * sockets, closing) is the library's own code.
 */
export class LocaltunnelProvider implements TunnelProvider {
  private readonly Client: LocaltunnelClientClass;

  constructor(private readonly opts: LocaltunnelProviderOptions) {
    this.Client = require('@n8n/localtunnel/lib/Tunnel.js') as LocaltunnelClientClass;
  }

  async expose(o: ExposeOptions, signal: AbortSignal): Promise<TunnelLink> {
    const registration = await this.register(o, signal);
    const client = new this.Client({
      host: o.host,
      port: o.localPort,
      subdomain: o.subdomain,
    });
    client._init = (cb) => cb(null, client._getInfo(registration));
    const link = new LocaltunnelLink(client, registration, this.opts.closeWaitMs ?? 2000);
    try {
      await link.opened(signal);
    } catch (e) {
      await link.close();
      throw e;
    }
    return link;
  }

  private async register(o: ExposeOptions, signal: AbortSignal): Promise<Registration> {
    let res;
    try {
      res = await httpGet(`${o.host}/${o.subdomain}`, {
        timeoutMs: this.opts.requestTimeoutMs,
        signal,
        maxRedirects: 3,
        headers: { accept: 'application/json' },
      });
    } catch (e) {
      if (signal.aborted) throw e;
      throw new Error(`Cannot reach the tunnel server ${o.host}: ${e instanceof Error ? e.message : String(e)}.`, {
        cause: e,
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      body = undefined;
    }
    const message = isRecord(body) && typeof body.message === 'string' ? `: ${body.message}` : '';
    if (res.status >= 500) throw new Error(`The tunnel server ${o.host} failed (HTTP ${res.status}${message}).`);
    if (res.status !== 200)
      throw new TunnelRefusedError(
        `The tunnel server ${o.host} refused the tunnel (HTTP ${res.status}${message}).`,
        res.status,
      );
    if (!isRegistration(body)) {
      throw new TunnelRefusedError(
        `${o.host} did not answer like a localtunnel server (no tunnel id, port and url in its answer).`,
        res.status,
      );
    }
    return { ...body, url: body.url.replace(/\/+$/, '') };
  }
}

class LocaltunnelLink implements TunnelLink {
  readonly url: string;
  readonly subdomain: string;
  private readonly sockets = new Set<Socket>();
  private dropListener: ((reason: string) => void) | null = null;
  private dropReason: string | null = null;
  private firstOpen: (() => void) | null = null;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly client: LocaltunnelClient,
    registration: Registration,
    private readonly closeWaitMs: number,
  ) {
    this.url = registration.url;
    this.subdomain = registration.id;
    // Always listening: an 'error' without a listener would crash the process, and
    // the client keeps emitting them (one per socket) after the server forgot it.
    client.on('error', (err: Error) => this.drop(describeSocketError(err)));
  }

  /** Starts the library's socket cluster and resolves once one socket reached the server. */
  opened(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = (err?: Error): void => {
        signal.removeEventListener('abort', onAbort);
        this.firstOpen = null;
        if (err) reject(err);
        else resolve();
      };
      this.firstOpen = () => settle();
      this.dropListener = (reason) => settle(new Error(reason));
      this.client.open((err) => {
        if (err) return settle(err);
        const cluster = this.client.tunnelCluster!;
        cluster.on('open', (socket: Socket) => {
          this.sockets.add(socket);
          socket.once('close', () => this.sockets.delete(socket));
          this.firstOpen?.();
        });
      });
      if (this.dropReason !== null) settle(new Error(this.dropReason));
    });
  }

  onDrop(listener: (reason: string) => void): void {
    this.dropListener = listener;
    if (this.dropReason !== null) listener(this.dropReason);
  }

  socketCount(): number {
    return this.sockets.size;
  }

  close(): Promise<void> {
    return (this.closing ??= this.shutdown());
  }

  private async shutdown(): Promise<void> {
    this.dropListener = null;
    // The client destroys its sockets on close; sockets still connecting are
    // destroyed by it as soon as they connect.
    this.client.close();
    for (const s of this.sockets) s.destroy();
    const deadline = Date.now() + this.closeWaitMs;
    while (this.sockets.size > 0 && Date.now() < deadline) await delay(10);
  }

  private drop(reason: string): void {
    if (this.dropReason !== null || this.closing) return;
    this.dropReason = reason;
    this.dropListener?.(reason);
  }
}

function describeSocketError(err: Error): string {
  if (/connection refused/i.test(err.message)) {
    return `The tunnel server refused the tunnel's connection (it restarted or forgot this client): ${err.message}.`;
  }
  return `The tunnel's connection failed: ${err.message}.`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function isRegistration(v: unknown): v is Registration {
  return (
    isRecord(v) &&
    typeof v.id === 'string' &&
    typeof v.port === 'number' &&
    typeof v.url === 'string' &&
    isAbsoluteHttpUrl(v.url)
  );
}
