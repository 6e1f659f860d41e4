import type { AccountContext } from '../auth/account-context.ts';
import type { EndpointRecord, ReceiverEndpoint } from '../endpoints/endpoint-types.ts';
import { NotFoundError } from '../errors/app-errors.ts';
import { buildCurl } from '../export/curl-builder.ts';
import { httpForDisplay } from '../export/http-builder.ts';
import { originalUrl } from '../export/request-parts.ts';
import type { LogsService, StoredLogWithBody } from '../logs/logs-service.ts';
import { headerObject } from '../support/headers.ts';
import { verify } from '../signatures/registry.ts';
import type { ReplayReader } from '../replay/replay-types.ts';
import type { BaseUrls } from '../support/base-urls.ts';
import type { Clock } from '../support/clock.ts';
import { checkDestination } from './destination-checks.ts';
import type { DestinationChecks } from './diagnose-schemas.ts';
import type { Diagnosis, ProbeTimeouts } from './diagnose-types.ts';

export interface DiagnoseServiceDeps {
  logs: Pick<LogsService, 'find'>;
  endpoints: {
    forReceiver(id: string): ReceiverEndpoint | undefined;
    /** The account's endpoint; NotFoundError for a missing or another account's. */
    own(account: AccountContext, id: string): EndpointRecord;
  };
  replays: ReplayReader;
  urls: BaseUrls;
  clock: Clock;
  timeouts?: Partial<ProbeTimeouts>;
}

export const DEFAULT_PROBE_TIMEOUTS: ProbeTimeouts = { dnsMs: 3000, connectMs: 3000, httpMs: 3000 };
const RECENT_REPLAYS = 10;

/** Everything a terminal needs to answer "why did this delivery not reach my handler". */
export class DiagnoseService {
  private readonly timeouts: ProbeTimeouts;

  constructor(private readonly deps: DiagnoseServiceDeps) {
    this.timeouts = { ...DEFAULT_PROBE_TIMEOUTS, ...deps.timeouts };
  }

  async diagnose(account: AccountContext, logId: string, target?: string): Promise<Diagnosis> {
    const d = await this.deps.logs.find(account, logId);
    const history = await this.deps.replays.history(account.id, logId, RECENT_REPLAYS);
    const url = target ?? originalUrl(this.deps.urls.receiver, d);
    const dest = this.destination(account, d, target, history[0]?.targetUrl);
    return {
      log: d,
      reconstruction: { url, curl: buildCurl(d, url), http: httpForDisplay(d, url) },
      verification: { stored: d.verification, now: this.verifyNow(account, d) },
      destination: dest ? await checkDestination(dest.url, dest.source, this.timeouts) : null,
      recentReplays: history,
    };
  }

  /** The target named in the request, else the endpoint's forward URL, else where it was last replayed. */
  private destination(
    account: AccountContext,
    d: StoredLogWithBody,
    target: string | undefined,
    lastReplay: string | undefined,
  ): { url: string; source: DestinationChecks['source'] } | null {
    if (target) return { url: target, source: 'query' };
    const forward = this.forwardUrl(account, d.endpointId);
    if (forward) return { url: forward, source: 'forward' };
    if (lastReplay) return { url: lastReplay, source: 'lastReplay' };
    return null;
  }

  private forwardUrl(account: AccountContext, endpointId: string): string | null {
    try {
      return this.deps.endpoints.own(account, endpointId).forwardUrl;
    } catch (e) {
      if (e instanceof NotFoundError) return null;
      throw e;
    }
  }

  /** Verification with the endpoint's secrets as they are now (a rotated secret shows as `previous`). */
  private verifyNow(account: AccountContext, d: StoredLogWithBody): Diagnosis['verification']['now'] {
    const ep = this.deps.endpoints.forReceiver(d.endpointId);
    if (!ep || ep.accountId !== account.id) return null;
    const nowMs = this.deps.clock.now();
    const result = d.truncated
      ? { ...d.verification, scheme: ep.validationType } // only the first bytes were kept: nothing to recompute
      : verify(ep.validationType, {
          rawBody: d.body,
          headers: headerObject(d.rawHeaders),
          secrets: ep.secrets,
          signatureHeader: ep.signatureHeader,
          toleranceSeconds: ep.toleranceSeconds,
          nowMs,
        });
    return { ...result, checkedAt: nowMs };
  }
}
