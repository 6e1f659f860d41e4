import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReceiverEndpoint } from '../endpoints/endpoint-types.ts';
import { GoneError, NotFoundError, TooManyRequestsError } from '../errors/app-errors.ts';
import { clientAddress, type TrustedProxies } from '../http/client-address.ts';
import { sendData, sendError } from '../http/envelope.ts';
import type { DeliveryDoor } from '../http/listeners.ts';
import { eventTypeOf } from '../logs/event-type.ts';
import type { AnswerRecord, NewLog } from '../logs/log-types.ts';
import type { LogVerification } from '../logs/logs-schemas.ts';
import {
  ACCEPTED,
  acceptedData,
  customAnswer,
  refusalError,
  refusedAnswer,
  VERIFICATION_FAILED,
  verificationFailedError,
} from '../logs/sender-answers.ts';
import type { Clock } from '../support/clock.ts';
import { requestContext, type ReportFault } from '../support/logger-faults.ts';
import { headerObject, headerPairs } from '../support/headers.ts';
import type { BodyBudget } from './body-budget.ts';
import { readBody, type BodyLimits } from './body-reader.ts';
import { DelayedAnswers } from './delayed-answers.ts';
import {
  notifyObservers,
  type DeliveryObserver,
  type RejectionReason,
  type StoredDelivery,
} from './delivery-observer.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { refusalFor } from './refusal.ts';
import { verify } from '../signatures/registry.ts';
import { parseWebhookUrl } from './webhook-path.ts';

export interface ReceiverDeps {
  /** On a team server, a miss reads the database (an endpoint another instance just created). */
  endpoints: { lookup(id: string): Promise<ReceiverEndpoint | undefined> };
  /** Stores a capture: `id` once it is durable, `settled` once the database worker is done with it. */
  logs: { record(log: NewLog): Promise<{ id: string; settled: Promise<void> }> };
  clock: Clock;
  limits: BodyLimits;
  /** Per-endpoint token bucket, checked before the body is read. */
  rateLimiter: RateLimiter;
  /** Body bytes in memory across all deliveries in flight. */
  budget: BodyBudget;
  /** Logs an engine fault and returns its error id (a 500 carries it). */
  onError: ReportFault;
  /** Features that react to deliveries (forwarding, metrics, live events). */
  observers?: DeliveryObserver[];
  /** Behind one of these, sourceIp is the client X-Forwarded-For names, not the proxy. */
  proxies: TrustedProxies;
}

const PREVIEW_BYTES = 64 * 1024;

export interface ReceiverLimitSettings {
  maxBodyBytes: number;
  requestTimeoutMs: number;
  bodyIdleTimeoutMs: number;
}

export function receiverLimits(s: ReceiverLimitSettings): BodyLimits {
  return {
    maxBytes: s.maxBodyBytes,
    previewBytes: PREVIEW_BYTES,
    drainBytes: 64 * 1024 * 1024,
    drainMs: 30_000,
    idleMs: s.bodyIdleTimeoutMs,
    requestMs: s.requestTimeoutMs,
  };
}

/**
 * The receiver's hot path, on plain node:http rather than Express: it runs for
 * every delivery, and the ingest goal (DESIGN.md) is set against a bare server.
 * It captures the raw bytes before anything parses them, verifies, stores with
 * a durable acknowledgement, and only then answers the sender: `{ id }`, or the
 * endpoint's custom answer for an accepted delivery (refusals keep theirs).
 */
export class Receiver {
  private readonly customAnswers: DelayedAnswers;

  constructor(private readonly deps: ReceiverDeps) {
    this.customAnswers = new DelayedAnswers((e) => void deps.onError(e));
  }

  /** The engine stops: custom answers still waiting out a delay are sent now. */
  flushDelayedAnswers(): Promise<void> {
    return this.customAnswers.flush();
  }

  /** Handles any method on `/webhook/:endpointId[/...]`. */
  handle(req: IncomingMessage, res: ServerResponse, door: DeliveryDoor): void {
    this.receive(req, res, door).catch((e: unknown) => {
      // 4xx answers (404, 410, 429, 400) are news for the sender, not engine faults; only
      // faults are logged, with an id the 500 carries.
      sendError(res, e, { report: (err) => this.deps.onError(err, requestContext(req, 'receiver')) });
    });
  }

  private async receive(req: IncomingMessage, res: ServerResponse, door: DeliveryDoor): Promise<void> {
    const receivedAt = this.deps.clock.now();
    const started = performance.now();
    const target = parseWebhookUrl(req.url ?? '/');
    const endpoint = target ? await this.deps.endpoints.lookup(target.endpointId) : undefined;
    if (!target || !endpoint) {
      req.resume();
      throw new NotFoundError('No endpoint with this id exists.', 'ENDPOINT_NOT_FOUND');
    }
    if (!endpoint.isActive) {
      // Deliberately not stored: an inactive endpoint is switched off.
      req.resume();
      await this.rejected(endpoint, 'endpoint_inactive', receivedAt);
      throw new GoneError('This endpoint is inactive; activate it to receive deliveries.', 'ENDPOINT_INACTIVE');
    }
    const rate = this.deps.rateLimiter.take(endpoint.id);
    if (!rate.allowed) {
      // Not stored either: a flood must not turn into a flood of writes.
      req.resume();
      await this.rejected(endpoint, 'rate_limited', receivedAt);
      throw new TooManyRequestsError(
        `This endpoint receives at most ${this.deps.rateLimiter.describe()}; retry in ${rate.retryAfterSeconds} s.`,
        rate.retryAfterSeconds,
      );
    }

    const read = await readBody(req, this.deps.limits, this.deps.budget);
    // The body's share of the memory budget is given back once the database worker holds
    // the record, not when the journal does: until then the record's copies (the journal
    // frame, the message to the worker) are in memory too, and a burst of large bodies
    // must not pile up there (measured: 80 x 9 MiB peaked at 0.9-1.4 GB before this).
    let releaseAfter: Promise<void> | null = null;
    try {
      if (read.outcome === 'aborted') return; // the sender is gone; nothing was acknowledged
      const refusal = refusalFor(read, this.deps.limits, this.deps.budget.limitBytes);
      const rawHeaders = headerPairs(req.rawHeaders);
      const headers = headerObject(rawHeaders);
      const verification: LogVerification = refusal
        ? {
            scheme: endpoint.validationType,
            result: 'invalid',
            reason: refusal.reason,
            detail: refusal.detail,
            matchedSecret: null,
          }
        : verify(endpoint.validationType, {
            rawBody: read.body,
            headers,
            secrets: endpoint.secrets,
            signatureHeader: endpoint.signatureHeader,
            toleranceSeconds: endpoint.toleranceSeconds,
            nowMs: receivedAt,
          });

      const status = verification.result === 'invalid' ? 'failed' : 'success';
      // Known before the log is stored, and stored with it: the detail shows the sender's answer.
      const answer: AnswerRecord = refusal
        ? refusedAnswer(refusal.reason, refusal.message)
        : status === 'failed'
          ? VERIFICATION_FAILED
          : endpoint.customResponse && door === 'public'
            ? customAnswer(endpoint.customResponse)
            : ACCEPTED;
      const contentType = req.headers['content-type'] ?? null;
      const truncated = refusal !== null && read.body.length < read.size;
      const log: NewLog = {
        accountId: endpoint.accountId,
        endpointId: endpoint.id,
        method: req.method ?? 'GET',
        path: target.path,
        query: target.query,
        rawHeaders,
        contentType,
        size: read.size,
        declaredSize: read.declaredSize,
        body: read.body,
        truncated,
        sourceIp: clientAddress(req, this.deps.proxies),
        receivedAt,
        durationMs: Math.round(performance.now() - started),
        status,
        verification,
        // Once, here: the list and live events read it from the stored log.
        eventType: eventTypeOf({ headers, contentType, body: read.body, truncated }),
        answer,
      };
      const { id: logId, settled } = await this.deps.logs.record(log);
      releaseAfter = settled;
      const stored: StoredDelivery = { ...log, id: logId };
      await this.notify((o) => o.stored?.(stored));

      if (refusal) {
        // A lingering close: Node closes the socket right after the answer when the
        // connection is not kept alive (the sender said `Connection: close`, or we
        // would), while the discarded body is still arriving. Keeping it alive lets
        // the reader finish draining (bounded by size and time) before it closes.
        if (refusal.drains && !req.complete) res.shouldKeepAlive = true;
        sendError(res, refusalError(refusal.reason, refusal.message, logId));
      } else if (status === 'failed') {
        sendError(res, verificationFailedError(logId, verification));
      } else if (answer.custom) {
        // Sent apart (after its delay): this frame, which holds the body, ends now.
        this.customAnswers.send(res, answer.custom, logId);
      } else {
        sendData(res, acceptedData(logId));
      }
    } finally {
      // Only the release function waits (not `read` and its body), so nothing large outlives the answer.
      const { release } = read;
      if (releaseAfter) void releaseAfter.then(release);
      else release();
    }
  }

  private rejected(endpoint: ReceiverEndpoint, reason: RejectionReason, at: number): Promise<void> {
    return this.notify((o) => o.rejected?.({ accountId: endpoint.accountId, endpointId: endpoint.id, reason, at }));
  }

  private notify(call: (o: DeliveryObserver) => Promise<void> | void | undefined): Promise<void> {
    return notifyObservers(this.deps.observers ?? [], call, this.deps.onError);
  }
}
