import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReceiverEndpoint } from '../endpoints/endpoint-types.ts';
import { GoneError, NotFoundError } from '../errors/app-errors.ts';
import { isEngineFault, sendError, sendJson } from '../http/envelope.ts';
import type { LogVerification, NewLog } from '../logs/log-types.ts';
import type { Clock } from '../support/clock.ts';
import { requestContext, type ReportFault } from '../support/logger-faults.ts';
import { headerObject, headerPairs } from '../support/headers.ts';
import { readBody, type BodyLimits } from './body-reader.ts';
import type { DeliveryObserver } from './delivery-observer.ts';
import { verify } from './verifiers/verifier-registry.ts';
import { parseWebhookUrl } from './webhook-path.ts';

export interface ReceiverDeps {
  endpoints: { forReceiver(id: string): ReceiverEndpoint | undefined };
  logs: { record(log: NewLog): Promise<string> };
  clock: Clock;
  limits: BodyLimits;
  /** Logs an engine fault and returns its error id (a 500 carries it). */
  onError: ReportFault;
  /** Features that react to deliveries (forwarding, metrics, live events). */
  observers?: DeliveryObserver[];
}

const PREVIEW_BYTES = 64 * 1024;

export function receiverLimits(maxBodyBytes: number): BodyLimits {
  return { maxBytes: maxBodyBytes, previewBytes: PREVIEW_BYTES, drainBytes: 64 * 1024 * 1024, drainMs: 30_000 };
}

/**
 * The receiver's hot path, on plain node:http rather than Express: it runs for
 * every delivery, and the ingest goal (DESIGN.md) is set against a bare server.
 * It captures the raw bytes before anything parses them, verifies, stores with
 * a durable acknowledgement, and only then answers the sender.
 */
export class Receiver {
  constructor(private readonly deps: ReceiverDeps) {}

  /** Handles any method on `/webhook/:endpointId[/...]`. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    this.receive(req, res).catch((e: unknown) => {
      // 404/410 are answers to the sender, not engine faults; only faults are logged, with an id the 500 carries.
      const report = (err: unknown): string => this.deps.onError(err, requestContext(req, 'receiver'));
      if (!res.headersSent) {
        sendError(res, e, report);
      } else {
        if (isEngineFault(e)) report(e);
        res.destroy();
      }
    });
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = this.deps.clock.now();
    const started = performance.now();
    const target = parseWebhookUrl(req.url ?? '/');
    const endpoint = target ? this.deps.endpoints.forReceiver(target.endpointId) : undefined;
    if (!target || !endpoint) {
      req.resume();
      throw new NotFoundError('No endpoint with this id exists.', 'ENDPOINT_NOT_FOUND');
    }
    if (!endpoint.isActive) {
      // Deliberately not stored: an inactive endpoint is switched off.
      req.resume();
      await this.notify((o) => o.rejected?.({ accountId: endpoint.accountId, endpointId: endpoint.id, reason: 'endpoint_inactive', at: receivedAt }));
      throw new GoneError('This endpoint is inactive; activate it to receive deliveries.', 'ENDPOINT_INACTIVE');
    }

    const read = await readBody(req, this.deps.limits);
    if (read.aborted) return; // the sender is gone; nothing was acknowledged

    const rawHeaders = headerPairs(req.rawHeaders);
    const verification: LogVerification = read.tooLarge
      ? {
          scheme: endpoint.validationType,
          result: 'invalid',
          reason: 'payload_too_large',
          detail: `The body of ${read.size} bytes is over the ${this.deps.limits.maxBytes}-byte limit; the first ${read.body.length} bytes were kept.`,
          matchedSecret: null,
        }
      : verify(endpoint.validationType, {
          rawBody: read.body,
          headers: headerObject(rawHeaders),
          secrets: endpoint.secrets,
          signatureHeader: endpoint.signatureHeader,
          toleranceSeconds: endpoint.toleranceSeconds,
          nowMs: receivedAt,
        });

    const status = verification.result === 'invalid' ? 'failed' : 'success';
    const log: NewLog = {
      accountId: endpoint.accountId,
      endpointId: endpoint.id,
      method: req.method ?? 'GET',
      path: target.path,
      query: target.query,
      rawHeaders,
      contentType: req.headers['content-type'] ?? null,
      size: read.size,
      body: read.body,
      truncated: read.tooLarge,
      sourceIp: clientAddress(req),
      receivedAt,
      durationMs: Math.round(performance.now() - started),
      status,
      verification,
    };
    const logId = await this.deps.logs.record(log);
    await this.notify((o) => o.stored?.({ ...log, id: logId }));

    if (read.tooLarge) {
      sendJson(res, 413, {
        success: false,
        error: {
          code: 'PAYLOAD_TOO_LARGE',
          message: `The body is larger than this endpoint accepts (${this.deps.limits.maxBytes} bytes).`,
          details: { logId, limitBytes: this.deps.limits.maxBytes },
        },
      });
    } else if (status === 'failed') {
      sendJson(res, 400, {
        success: false,
        error: {
          code: 'SIGNATURE_VERIFICATION_FAILED',
          message: `Signature verification failed (${verification.reason ?? 'invalid'})${verification.detail ? `: ${verification.detail}` : '.'}`,
          details: { logId, reason: verification.reason },
        },
      });
    } else {
      sendJson(res, 200, { success: true, data: { id: logId } });
    }
  }

  /** Runs every observer; one that fails is reported and never fails the delivery. */
  private async notify(call: (o: DeliveryObserver) => Promise<void> | void | undefined): Promise<void> {
    const observers = this.deps.observers ?? [];
    if (observers.length === 0) return;
    await Promise.all(
      observers.map(async (o) => {
        try {
          await call(o);
        } catch (e) {
          this.deps.onError(e);
        }
      }),
    );
  }
}

function clientAddress(req: IncomingMessage): string | null {
  const a = req.socket.remoteAddress;
  if (!a) return null;
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}
