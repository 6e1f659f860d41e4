import type { AccountContext } from '../auth/account-context.ts';
import { isOwner } from '../auth/owner.ts';
import type { TunnelConfig } from '../config/config.ts';
import { ForbiddenError } from '../errors/app-errors.ts';
import type { DeliveryObserver, StoredDelivery } from '../receiver/delivery-observer.ts';
import type { BaseUrls } from '../support/base-urls.ts';
import { isoTime, type Clock } from '../support/clock.ts';
import { headerValue } from '../support/headers.ts';
import type { Random } from '../support/random.ts';
import type { SubdomainMemory } from './subdomain-memory.ts';
import { isPublicLocaltunnel, normalizeHost, randomSubdomain } from './subdomain.ts';
import type { TunnelSupervisor } from './tunnel-supervisor.ts';
import type { TunnelView } from './tunnel-schemas.ts';
import type { SupervisorStatus } from './tunnel-types.ts';

export interface TunnelUpdate {
  enabled?: boolean;
  host?: string;
  /** null = forget the wanted subdomain and take a fresh random one. */
  subdomain?: string | null;
}

export interface TunnelServiceDeps {
  config: TunnelConfig;
  supervisor: TunnelSupervisor;
  memory: SubdomainMemory;
  urls: BaseUrls;
  /**
   * Pushes `tunnel.status` to every account. The engine passes its event bus,
   * whose event map (server/events/event-map.ts) checks this signature against it.
   */
  events: { broadcast: (type: 'tunnel.status', data: TunnelView, accountIds: Iterable<string>) => void };
  /** Every account, to push the engine-wide tunnel status to each. */
  accounts: { ids(): string[] };
  /** The account that may switch the tunnel (`owner` in config). */
  owner: string;
  clock: Clock;
  random: Random;
  /** Keeps runtime.json's publicUrl current. */
  onPublicUrl: (url: string | null) => Promise<void>;
  onError: (err: unknown) => void;
}

export const BROWSER_NOTICE =
  'The public localtunnel service shows browsers a warning page first (servers sending webhooks never see it): ' +
  'a teammate opening a share link in a browser must enter the tunnel password, which is the public IP address ' +
  'of the machine running Hookscope (shown at https://loca.lt/mytunnelpassword), or use the cURL, JSON or HAR export instead.';

/**
 * The engine's public URL: settings (on/off, host, subdomain), what the API and
 * live events report, and the effects of the tunnel's state on the rest of the
 * engine (endpoints' publicUrl through BaseUrls, runtime.json). The supervisor
 * does the connecting; this class decides what to connect to.
 */
export class TunnelService {
  private enabled = false;
  private host: string;
  /** Chosen by the user (config, --subdomain or the API); wins over the remembered one. */
  private explicitSubdomain: string | null;
  private wanted: string | null = null;
  private localPort: number | null = null;
  private publicHostname: string | null = null;
  private lastDeliveryAt: number | null = null;
  private publishedUrl: string | null = null;
  private runtimeWrites: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly fallbackPublicBase: string | null;

  constructor(private readonly deps: TunnelServiceDeps) {
    this.host = normalizeHost(deps.config.host);
    this.explicitSubdomain = deps.config.subdomain;
    this.fallbackPublicBase = deps.urls.publicBase;
    this.publishedUrl = deps.urls.publicBase;
    deps.supervisor.subscribe((s) => this.onStatus(s));
  }

  /** Called once the listeners are bound: the tunnel points at its own loopback listener and only there. */
  async start(tunnelUrl: string): Promise<void> {
    this.localPort = Number(new URL(tunnelUrl).port);
    if (this.deps.config.enabled) await this.apply({ enabled: true });
  }

  status(): TunnelView {
    const s = this.deps.supervisor.status();
    const online = s.state === 'online';
    const iso = (ms: number | null): string | null => (ms === null ? null : isoTime(ms));
    return {
      state: s.state,
      enabled: this.enabled,
      url: s.url,
      since: isoTime(s.since),
      lastError: s.lastError,
      attempts: s.attempts,
      host: this.host,
      subdomain: s.state === 'disabled' ? (this.explicitSubdomain ?? this.wanted) : s.subdomain,
      lastDeliveryAt: iso(this.lastDeliveryAt),
      checkedAt: iso(s.checkedAt),
      roundTripMs: s.roundTripMs,
      retryAt: iso(s.retryAt),
      browserNotice: online && isPublicLocaltunnel(this.host, s.url) ? BROWSER_NOTICE : null,
    };
  }

  /**
   * Switches the tunnel on or off and changes its host or subdomain; a running
   * tunnel reconnects with the new settings. The tunnel is engine-wide (it could
   * point every account's deliveries at another host), so only the owner may.
   */
  async update(account: AccountContext, input: TunnelUpdate): Promise<TunnelView> {
    if (!isOwner(account, this.deps.owner)) {
      throw new ForbiddenError(
        `Only the owner account of this install ("${this.deps.owner}", set with --owner) may change the tunnel; other accounts may read its status.`,
      );
    }
    return this.apply(input);
  }

  /**
   * The saved tunnel settings changed (server/settings, owner-checked there): a
   * running tunnel reconnects with them, a stopped one uses them when it next
   * starts. Unlike the API's `subdomain: null`, no subdomain here means "none
   * chosen": the one remembered for the host is asked for again.
   */
  async reconfigure(settings: { host: string; subdomain: string | null }): Promise<TunnelView> {
    const host = normalizeHost(settings.host);
    if (host === this.host && settings.subdomain === this.explicitSubdomain) return this.status();
    this.host = host;
    this.explicitSubdomain = settings.subdomain;
    this.wanted = null;
    if (this.enabled) await this.connect();
    await this.runtimeWrites;
    return this.status();
  }

  private async apply(input: TunnelUpdate): Promise<TunnelView> {
    let changed = false;
    if (input.host !== undefined) {
      const host = normalizeHost(input.host);
      if (host !== this.host) {
        this.host = host;
        this.wanted = null;
        changed = true;
      }
    }
    if (input.subdomain !== undefined) {
      this.explicitSubdomain = input.subdomain;
      this.wanted = null;
      if (input.subdomain === null) await this.forget();
      changed = true;
    }
    const wasEnabled = this.enabled;
    if (input.enabled !== undefined) this.enabled = input.enabled;

    // Asking to enable a tunnel that is down (or failing its checks) reconnects now instead of waiting.
    const down = ['degraded', 'offline', 'error'].includes(this.deps.supervisor.status().state);
    if (!this.enabled) {
      if (wasEnabled) await this.deps.supervisor.close();
    } else if (!wasEnabled || changed || (input.enabled === true && down)) {
      await this.connect();
    }
    // runtime.json follows before the answer, so a CLI reading it next sees the change.
    await this.runtimeWrites;
    return this.status();
  }

  /** (Re)opens the tunnel with the current host and subdomain. */
  private async connect(): Promise<void> {
    if (this.localPort === null) throw new Error('The tunnel cannot start before its listener is bound.');
    const { subdomain, remembered } = await this.resolveWanted();
    await this.deps.supervisor.expose({
      host: this.host,
      subdomain,
      remembered,
      localPort: this.localPort,
    });
  }

  /** Marks deliveries that arrived through the tunnel (their Host is the public URL's host). */
  readonly observer: DeliveryObserver = {
    stored: (d: StoredDelivery) => {
      if (this.publicHostname === null) return;
      const host = headerValue(d.rawHeaders, 'host');
      if (host !== undefined && hostnameOf(host) === this.publicHostname) this.lastDeliveryAt = d.receivedAt;
    },
  };

  /** Calls the listener with the new status on every change (the CLI's public URL line); returns the unsubscribe. */
  subscribe(listener: (view: TunnelView) => void): () => void {
    return this.deps.supervisor.subscribe(() => listener(this.status()));
  }

  /** Sockets the tunnel holds to its server (0 when closed). */
  socketCount(): number {
    return this.deps.supervisor.socketCount();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.deps.supervisor.close();
    await this.runtimeWrites;
  }

  /** The explicit subdomain, else the one remembered for this host, else a fresh one (remembered at once). */
  private async resolveWanted(): Promise<{ subdomain: string; remembered: boolean }> {
    const { memory, random } = this.deps;
    const recalled = await memory.recall(this.host);
    const wanted = this.explicitSubdomain ?? this.wanted ?? recalled ?? randomSubdomain(random);
    this.wanted = wanted;
    await memory.remember(this.host, wanted);
    return { subdomain: wanted, remembered: wanted === recalled };
  }

  private async forget(): Promise<void> {
    await this.deps.memory.remember(this.host, randomSubdomain(this.deps.random));
  }

  private onStatus(s: SupervisorStatus): void {
    const { urls, events, accounts } = this.deps;
    // A degraded tunnel keeps its URL: it is still registered, and usually recovers under the same name.
    const url = s.state === 'online' || s.state === 'degraded' ? s.url : null;
    urls.publicBase = url ?? this.fallbackPublicBase;
    this.publicHostname = url ? new URL(url).hostname : null;
    if (urls.publicBase !== this.publishedUrl && !this.stopped) {
      const next = urls.publicBase;
      this.publishedUrl = next;
      this.runtimeWrites = this.runtimeWrites.then(() => this.deps.onPublicUrl(next)).catch(this.deps.onError);
    }
    events.broadcast('tunnel.status', this.status(), accounts.ids());
  }
}

function hostnameOf(hostHeader: string): string {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return '';
  }
}
