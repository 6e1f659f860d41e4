import { EDITED_BODY_CAP_BYTES } from './replay-limits.ts';
import type { AccountContext } from '../auth/account-context.ts';
import type { ReceiverEndpoint } from '../endpoints/endpoint-types.ts';
import { requiresSecret } from '../endpoints/validation-types.ts';
import {
  BadGatewayError,
  ConflictError,
  GatewayTimeoutError,
  NotFoundError,
  ValidationError,
} from '../errors/app-errors.ts';
import type { LogUpdated } from '../logs/log-events.ts';
import type { LogsService, StoredLogWithBody } from '../logs/logs-service.ts';
import { sign } from '../signatures/registry.ts';
import type { Clock } from '../support/clock.ts';
import { headerValue } from '../support/headers.ts';
import type { IdGenerator } from '../support/ids.ts';
import type { ForwardQueueRepository } from './forward-queue-repository.ts';
import { forwardTarget } from './forwarder.ts';
import { NOT_SENT, send as httpSend, TIMEOUT, type SendInput, type SendResult } from './http-sender.ts';
import { buildHeaders, forwardedHeaders, type HeaderOverrides } from './outgoing-request.ts';
import { diffReplays, type ReplayDiff } from './replay-diff.ts';
import type { ReplayRepository } from './replay-repository.ts';
import { percentile } from '../support/percentile.ts';
import {
  historyEntry,
  replayFailed,
  type BodyEncoding,
  type ReplayFailure,
  type HeaderPairs,
  type ReplayReader,
  type ReplayRecord,
  type ReplayStats,
  type ReplayTrigger,
  type StoredReplay,
} from './replay-types.ts';
import type { ReplayHistoryEntry } from './replay-schemas.ts';

/** What a user may change of a stored delivery before it is sent (replay and outgoing alike). */
export interface RequestEdits {
  method?: string;
  headers?: HeaderOverrides;
  body?: string;
  bodyEncoding?: BodyEncoding;
  resign?: boolean;
}

export interface ReplayInput extends RequestEdits {
  targetUrl: string;
  timeoutMs?: number;
}

/** A request a client sent itself (the desktop app, to its own localhost) and what came back. */
export interface SentInput {
  targetUrl: string;
  method: string;
  requestHeaders: HeaderPairs;
  /** The body sent when it differs from the log's bytes; absent: the log's bytes. */
  body?: string;
  bodyEncoding?: BodyEncoding;
  edited: boolean;
  status: number | null;
  responseTime: number;
  responseHeaders: HeaderPairs;
  /** Base64, at most RESPONSE_CAP_BYTES decoded. */
  responseBody: string;
  responseTruncated: boolean;
  error: ReplayFailure | null;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** A request built for a stored delivery and not sent (outgoing): the caller sends it. */
export interface OutgoingRequest {
  method: string;
  url: URL;
  headers: HeaderPairs;
  body: Buffer;
  /** The method, a header or the body differs from a plain send to this target (see ReplayRecord.edited). */
  edited: boolean;
}

/** A request built from a log and the user's edits: what replay sends and outgoing hands out. */
interface BuiltRequest extends OutgoingRequest {
  log: StoredLogWithBody;
  /** The body differs from the log's bytes (then stored with the attempt). */
  bodyEdited: boolean;
}

export interface ReplayServiceDeps {
  repo: ReplayRepository;
  queue: ForwardQueueRepository;
  logs: Pick<LogsService, 'find' | 'statusOf'>;
  endpoints: { forReceiver(id: string): ReceiverEndpoint | undefined };
  /** The public base URL (tunnel or configured) as it is now: how X-Forwarded-Proto is decided. */
  urls: { readonly publicBase: string | null };
  clock: Clock;
  ids: IdGenerator;
  /**
   * `replay.completed` and `log.updated` to the log's account. The engine passes
   * its event bus, whose event map (server/events/event-map.ts) checks these signatures.
   */
  events: {
    publish: ((accountId: string, type: 'replay.completed', data: ReplayHistoryEntry) => void) &
      ((accountId: string, type: 'log.updated', data: LogUpdated) => void);
  };
  /** The HTTP client; tests of the service alone may pass another. */
  send?: (input: SendInput) => Promise<SendResult>;
  /**
   * Told of every attempt once stored and announced (remediation: whether the log can
   * now be explained), before the attempt's caller hears of it. Never rejects.
   */
  recorded?: (r: ReplayRecord) => Promise<void>;
  /** Attempts kept per account (oldest evicted first). */
  maxHistoryPerAccount?: number;
}

/**
 * One attempt with the request body as sent: the stored body of an edited one (at
 * most its first EDITED_BODY_CAP_BYTES), else the log's own bytes.
 */
export interface SentReplay {
  replay: StoredReplay;
  requestBody: Buffer;
  /** The whole size of what was sent (more than requestBody's length when cut). */
  requestBodySize: number;
}

/** A stored delivery made ready to send again: what both replay and forwarding start from. */
export interface SendableLog {
  /** With its exact bytes. */
  log: StoredLogWithBody;
  /** The engine's own X-Forwarded-* for it (the sender's are never sent on). */
  forwarded: HeaderPairs;
}

// Eviction scans the account's history; doing it on every Nth insert keeps the cost off each one.
const EVICT_EVERY = 100;

/**
 * Manual replays, replay history and diffs, and the ReplayReader other features
 * read. Forwarding (forwarder.ts) records its attempts through `record` too.
 */
export class ReplayService implements ReplayReader {
  private readonly send: (input: SendInput) => Promise<SendResult>;
  private readonly maxHistory: number;
  private insertsSinceEviction = 0;

  constructor(private readonly deps: ReplayServiceDeps) {
    this.send = deps.send ?? httpSend;
    this.maxHistory = deps.maxHistoryPerAccount ?? 10_000;
  }

  /**
   * Sends a stored delivery to `targetUrl` and records the attempt. The target's
   * own 4xx/5xx is a result, not an error; no response at all is a 502 or 504
   * (recorded too, its id in the error's details).
   */
  async replay(account: AccountContext, logId: string, input: ReplayInput): Promise<StoredReplay> {
    const { log, method, url, headers, body, edited, bodyEdited } = await this.build(
      account,
      logId,
      input,
      () => new URL(input.targetUrl),
    );

    const createdAt = this.deps.clock.now();
    const result = await this.send({ url, method, headers, body, timeoutMs: input.timeoutMs ?? DEFAULT_TIMEOUT_MS });
    const record = await this.record({
      id: this.deps.ids.opaque('rp'),
      accountId: account.id,
      logId,
      endpointId: log.endpointId,
      targetUrl: url.href,
      method,
      createdAt,
      trigger: 'manual',
      edited,
      requestHeaders: headers,
      requestBody: bodyEdited ? body.subarray(0, EDITED_BODY_CAP_BYTES) : null,
      requestBodySize: bodyEdited ? body.length : null,
      ...result,
    });

    if (result.error) {
      const details = {
        replayId: record.id,
        targetUrl: url.href,
        field: result.error.code === NOT_SENT ? 'headers' : undefined,
      };
      if (result.error.code === TIMEOUT)
        throw new GatewayTimeoutError(result.error.message, details, result.error.code);
      if (result.error.code === NOT_SENT) throw new ValidationError(result.error.message, details, result.error.code);
      throw new BadGatewayError(result.error.message, details, result.error.code);
    }
    return record;
  }

  /**
   * The request forwarding would send for the log to `targetUrl` (sub-path and
   * query joined as forwardTarget does), with the user's edits applied exactly as
   * a replay applies them (buildHeaders, re-signed when asked), built and not sent:
   * `hookscope listen` and the desktop app send it from the laptop, which the
   * engine cannot reach, with a signature only the engine can make (it holds the
   * secret). Nothing is recorded.
   */
  async outgoing(
    account: AccountContext,
    logId: string,
    input: RequestEdits & { targetUrl: string },
  ): Promise<OutgoingRequest> {
    const { method, url, headers, body, edited } = await this.build(account, logId, input, (log) =>
      forwardTarget(input.targetUrl, log.path, log.query),
    );
    return { method, url, headers, body, edited };
  }

  /**
   * Records a request a client sent itself (trigger `client`): the desktop app on a
   * team server sends to the laptop's localhost, which the engine cannot reach, and
   * reports what it sent and what came back. Stored like the engine's own attempts,
   * an edited body up to EDITED_BODY_CAP_BYTES with its whole size.
   */
  async recordSent(account: AccountContext, logId: string, input: SentInput): Promise<StoredReplay> {
    const log = await this.deps.logs.find(account, logId);
    assertWhole(log, logId, input.body);
    const body = input.body !== undefined ? Buffer.from(input.body, input.bodyEncoding ?? 'utf8') : log.body;
    const bodyEdited = !body.equals(log.body);
    if (bodyEdited && !input.edited) {
      throw new ValidationError(
        `Invalid request body "edited": it must be true when the body sent differs from the log's bytes.`,
        {
          field: 'edited',
        },
      );
    }
    return this.record({
      id: this.deps.ids.opaque('rp'),
      accountId: account.id,
      logId,
      endpointId: log.endpointId,
      targetUrl: input.targetUrl,
      method: input.method,
      // When it was sent, as for the engine's own attempts: the report comes once the answer did.
      createdAt: this.deps.clock.now() - input.responseTime,
      trigger: 'client',
      edited: input.edited,
      requestHeaders: input.requestHeaders,
      requestBody: bodyEdited ? body.subarray(0, EDITED_BODY_CAP_BYTES) : null,
      requestBodySize: bodyEdited ? body.length : null,
      status: input.status,
      responseTime: input.responseTime,
      responseHeaders: input.responseHeaders,
      responseBody: Buffer.from(input.responseBody, 'base64'),
      responseTruncated: input.responseTruncated,
      error: input.error,
    });
  }

  /**
   * The request for a log with the user's edits: the original method, headers
   * (buildHeaders) and exact bytes unless overridden, re-signed over the final
   * body when asked, to the URL `target` makes of the log.
   */
  private async build(
    account: AccountContext,
    logId: string,
    input: RequestEdits,
    target: (log: StoredLogWithBody) => URL,
  ): Promise<BuiltRequest> {
    const { log, forwarded } = await this.sendable(account, logId);
    const original = log.body;
    const endpoint = this.deps.endpoints.forReceiver(log.endpointId);
    if (!endpoint || endpoint.accountId !== account.id) throw logNotFound(logId);
    assertWhole(log, logId, input.body);
    const body = input.body !== undefined ? Buffer.from(input.body, input.bodyEncoding ?? 'utf8') : original;
    const url = target(log);
    const method = input.method ?? log.method;
    const signed = input.resign ? this.signatureHeaders(endpoint, log.rawHeaders, body) : [];
    // Like a forward, a replay says where the delivery came from; a header the user typed still wins.
    const headers = buildHeaders(log.rawHeaders, url, body, input.headers ?? {}, signed, forwarded);
    const bodyEdited = !body.equals(original);
    // Edited: what is sent differs from a plain replay (re-signed the same way) to this target.
    // Overrides that change nothing (a header set to the value it has) are no edit.
    const edited =
      method !== log.method ||
      bodyEdited ||
      !sameHeaders(headers, buildHeaders(log.rawHeaders, url, body, {}, signed, forwarded));
    return { log, method, url, headers, body, edited, bodyEdited };
  }

  /** The log (account-scoped: another account's is a 404), its exact bytes and the X-Forwarded-* to send with them. */
  async sendable(account: AccountContext, logId: string): Promise<SendableLog> {
    const log = await this.deps.logs.find(account, logId);
    return {
      log,
      forwarded: forwardedHeaders({
        sourceIp: log.sourceIp,
        rawHeaders: log.rawHeaders,
        publicBase: this.deps.urls.publicBase,
      }),
    };
  }

  /**
   * Stores an attempt (manual or forward) and tells live clients. Every replay
   * and every forward attempt comes through here, so this is where the log's
   * replay or forward state changes.
   */
  async record(r: StoredReplay): Promise<StoredReplay> {
    this.insertsSinceEviction = (this.insertsSinceEviction + 1) % EVICT_EVERY;
    await this.deps.repo.insert(r, this.insertsSinceEviction === 0 ? this.maxHistory : null);
    // The entry, not the detail: events are kept for resume, and response bodies would bloat that buffer.
    this.deps.events.publish(r.accountId, 'replay.completed', historyEntry(r));
    this.deps.events.publish(r.accountId, 'log.updated', {
      logId: r.logId,
      endpointId: r.endpointId,
      change: r.trigger === 'forward' ? 'forward' : 'replay',
    });
    await this.deps.recorded?.(r);
    return r;
  }

  async historyPage(
    account: AccountContext,
    logId: string,
    limit: number,
    offset: number,
  ): Promise<{ history: StoredReplay[]; total: number }> {
    const { rows, total } = await this.deps.repo.forLog(account.id, logId, limit, offset);
    // History rows exist only for the account's own logs; with none, tell a missing log from an unreplayed one.
    if (total === 0 && (await this.deps.logs.statusOf(account.id, logId)) === null) throw logNotFound(logId);
    return { history: rows, total };
  }

  /** One attempt with the request as sent: the stored body of an edited one (at most its first 64 KiB), else the log's own bytes. */
  async get(account: AccountContext, logId: string, replayId: string): Promise<SentReplay> {
    const r = await this.own(account, logId, replayId);
    const sent = r.requestBody ?? (await this.deps.logs.find(account, logId)).body;
    return { replay: r, requestBody: sent, requestBodySize: r.requestBodySize ?? sent.length };
  }

  async diff(account: AccountContext, logId: string, a: string, b: string): Promise<ReplayDiff> {
    const [ra, rb] = await Promise.all([this.own(account, logId, a, 'a'), this.own(account, logId, b, 'b')]);
    return diffReplays(ra, rb);
  }

  /** When the endpoint's forward target last accepted a delivery (end of that attempt), or null. */
  async lastForwardDelivered(accountId: string, endpointId: string): Promise<number | null> {
    return this.deps.repo.lastForwardDelivered(accountId, endpointId);
  }

  // ---- ReplayReader

  async history(accountId: string, logId: string, limit = 50): Promise<ReplayRecord[]> {
    const { rows } = await this.deps.repo.forLog(accountId, logId, limit, 0);
    return rows.map(contractRecord);
  }

  async stats(accountId: string, sinceMs: number): Promise<ReplayStats> {
    const rows = await this.deps.repo.since(accountId, sinceMs);
    const byTrigger: Record<ReplayTrigger, number> = { manual: 0, forward: 0, client: 0 };
    let failed = 0;
    for (const r of rows) {
      byTrigger[r.trigger] += 1;
      if (replayFailed(r)) failed += 1;
    }
    const times = rows.map((r) => r.responseTime).sort((x, y) => x - y);
    return {
      total: rows.length,
      succeeded: rows.length - failed,
      failed,
      byTrigger,
      p50Ms: percentile(times, 0.5),
      p95Ms: percentile(times, 0.95),
    };
  }

  /** Removes an endpoint's replay history and forward queue (endpoint deletion). */
  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    await this.deps.queue.clearEndpoint(endpointId);
    await this.deps.repo.deleteForEndpoint(accountId, endpointId);
  }

  private async own(account: AccountContext, logId: string, replayId: string, field?: string): Promise<StoredReplay> {
    const r = await this.deps.repo.find(account.id, replayId);
    if (!r || r.logId !== logId) {
      throw new NotFoundError(
        `Replay ${replayId} of log ${logId} was not found${field ? ` (query parameter ${field})` : ''}.`,
        'REPLAY_NOT_FOUND',
      );
    }
    return r;
  }

  /**
   * The endpoint's scheme signed with its CURRENT secret and a fresh timestamp.
   * A standard_webhooks message keeps its original id (webhook-id) so a
   * handler's idempotency check still sees the same message.
   */
  private signatureHeaders(endpoint: ReceiverEndpoint, original: HeaderPairs, body: Buffer): HeaderPairs {
    if (!requiresSecret(endpoint.validationType)) return [];
    const secret = endpoint.secrets.find((s) => s.kind === 'current')?.value;
    if (!secret) {
      throw new ConflictError(`Endpoint ${endpoint.id} has no current secret to re-sign with.`, 'RESIGN_NOT_POSSIBLE', {
        field: 'resign',
      });
    }
    return sign(endpoint.validationType, {
      body,
      secret,
      nowMs: this.deps.clock.now(),
      signatureHeader: endpoint.signatureHeader,
      messageId: headerValue(original, 'webhook-id'),
    });
  }
}

/** A log stored cut at the body limit can be sent only with a body given in its place. */
function assertWhole(log: StoredLogWithBody, logId: string, body: string | undefined): void {
  if (log.truncated && body === undefined) {
    throw new ConflictError(
      `Log ${logId} holds only the first ${log.storedSize} of its ${log.size} bytes (it was over the body limit); pass a body to send it.`,
      'LOG_BODY_TRUNCATED',
      { field: 'body' },
    );
  }
}

function logNotFound(id: string): NotFoundError {
  return new NotFoundError(`Log ${id} was not found.`, 'LOG_NOT_FOUND');
}

function contractRecord(r: StoredReplay): ReplayRecord {
  return {
    id: r.id,
    accountId: r.accountId,
    logId: r.logId,
    endpointId: r.endpointId,
    targetUrl: r.targetUrl,
    method: r.method,
    status: r.status,
    responseTime: r.responseTime,
    error: r.error,
    trigger: r.trigger,
    createdAt: r.createdAt,
    edited: r.edited,
  };
}

const sameHeaders = (a: HeaderPairs, b: HeaderPairs): boolean =>
  a.length === b.length && a.every(([n, v], i) => n === b[i]?.[0] && v === b[i]?.[1]);
