import type { AccountContext } from '../auth/account-context.ts';
import { GoneError, NotFoundError } from '../errors/app-errors.ts';
import type { LogUpdated } from '../logs/log-events.ts';
import type { LogsService, StoredLogWithBody } from '../logs/logs-service.ts';
import type { BaseUrls } from '../support/base-urls.ts';
import { isoTime, type Clock } from '../support/clock.ts';
import type { Random } from '../support/random.ts';
import { redactLog, redactPath } from './redaction.ts';
import type { ShareRepository } from './share-repository.ts';
import { hashShareToken, isShareTokenShape, newShareToken } from './share-token.ts';
import type { CreateShareInput, ShareRecord } from './share-types.ts';

export interface ShareServiceDeps {
  repo: ShareRepository;
  /** Logs are read through their service (never their tables): a deleted or evicted log ends its link. */
  logs: Pick<LogsService, 'find'>;
  urls: BaseUrls;
  clock: Clock;
  random: Random;
  /**
   * What a browser visitor of the public URL must know (the localtunnel service's
   * warning page and password), or null; asked at each create, since the tunnel
   * comes and goes.
   */
  browserNotice?: () => string | null;
  /**
   * `log.updated` (change `share`) when a link is created, replaced or revoked.
   * The engine passes its event bus, whose event map (server/events/event-map.ts) checks this signature.
   */
  events: { publish: (accountId: string, type: 'log.updated', data: LogUpdated) => void };
}

/** A link just made; `url` holds its token, known only now. Times in epoch ms. */
export interface CreatedShare {
  logId: string;
  url: string;
  expiresAt: number;
  expiresInHours: number;
  redacted: boolean;
  pathRedacted: boolean;
  /** No tunnel is online: the link points at this machine's receiver. */
  localOnly: boolean;
  browserNotice: string | null;
  createdAt: number;
}

/** A shared log as its link shows it: redacted as the link says. */
export interface OpenedShare {
  log: StoredLogWithBody;
  expiresAt: number;
  redacted: boolean;
  pathRedacted: boolean;
}

const HOUR_MS = 3_600_000;
const notFound = (): NotFoundError =>
  new NotFoundError('This share link does not exist or was revoked.', 'SHARE_NOT_FOUND');

export class ShareService {
  constructor(private readonly deps: ShareServiceDeps) {}

  /** Creates the log's link, replacing any earlier one (which then answers 404). */
  async create(account: AccountContext, logId: string, input: CreateShareInput): Promise<CreatedShare> {
    const log = await this.deps.logs.find(account, logId); // 404 for a missing or another account's log
    const token = newShareToken(this.deps.random);
    const now = this.deps.clock.now();
    const record: ShareRecord = {
      tokenHash: hashShareToken(token),
      accountId: account.id,
      logId: log.id,
      endpointId: log.endpointId,
      redact: input.redact,
      redactPath: input.redactPath,
      createdAt: now,
      expiresAt: now + Math.round(input.expiresInHours * HOUR_MS),
    };
    await this.deps.repo.replace(record);
    this.deps.events.publish(account.id, 'log.updated', { logId: log.id, endpointId: log.endpointId, change: 'share' });
    // Public while the tunnel is online; otherwise the receiver on this machine.
    const base = this.deps.urls.publicBase ?? this.deps.urls.receiver;
    return {
      logId: log.id,
      url: `${base}/share/${token}`,
      expiresAt: record.expiresAt,
      expiresInHours: input.expiresInHours,
      redacted: input.redact,
      pathRedacted: input.redactPath,
      localOnly: this.deps.urls.publicBase === null,
      browserNotice: this.deps.urls.publicBase === null ? null : (this.deps.browserNotice?.() ?? null),
      createdAt: now,
    };
  }

  async revoke(account: AccountContext, logId: string): Promise<{ logId: string; revoked: true }> {
    const existing = await this.deps.repo.findForLog(account.id, logId);
    if (!existing) throw new NotFoundError(`Log ${logId} has no share link.`, 'SHARE_NOT_FOUND');
    await this.deps.repo.deleteForLog(account.id, logId);
    this.deps.events.publish(account.id, 'log.updated', { logId, endpointId: existing.endpointId, change: 'share' });
    return { logId, revoked: true };
  }

  /** What a link shows: 404 when unknown, revoked or the log is gone; 410 once expired. */
  async open(token: string): Promise<OpenedShare> {
    if (!isShareTokenShape(token)) throw notFound();
    const share = await this.deps.repo.findByHash(hashShareToken(token));
    if (!share) throw notFound();
    if (this.deps.clock.now() >= share.expiresAt) {
      throw new GoneError(`This share link expired at ${isoTime(share.expiresAt)}.`, 'SHARE_EXPIRED');
    }
    let log: StoredLogWithBody;
    try {
      log = await this.deps.logs.find({ id: share.accountId, name: '' }, share.logId);
    } catch (e) {
      if (e instanceof NotFoundError) throw notFound();
      throw e;
    }
    const named = share.redact ? redactLog(log) : log;
    return {
      log: share.redactPath ? { ...named, path: redactPath(named.path) } : named,
      expiresAt: share.expiresAt,
      redacted: share.redact,
      pathRedacted: share.redactPath,
    };
  }

  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    await this.deps.repo.deleteForEndpoint(accountId, endpointId);
  }
}
