import type { AccountContext } from '../auth/account-context.ts';
import { AppError, ConflictError } from '../errors/app-errors.ts';
import { schemeFor } from '../signatures/registry.ts';
import type { SamplePayload } from '../signatures/signature-scheme.ts';
import type { BaseUrls } from '../support/base-urls.ts';
import type { Clock } from '../support/clock.ts';
import type { Random } from '../support/random.ts';
import { LOG_ID_HEADER } from './custom-response.ts';
import type { EndpointRecord } from './endpoint-types.ts';
import type { TestDeliveryResult } from './endpoints-schemas.ts';

export interface TestDeliveryDeps {
  endpoints: { own(account: AccountContext, id: string): EndpointRecord };
  urls: BaseUrls;
  clock: Clock;
  random: Random;
  /** How long to wait for the receiver's answer. */
  timeoutMs?: number;
}

const USER_AGENT = 'Hookscope-Test-Delivery/1.0';
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * "Send a signed test webhook": builds a sample delivery for the endpoint's scheme,
 * signs it with the endpoint's current secret the way the provider would, and
 * sends it over real HTTP to the engine's own receiver, so it takes exactly the
 * path (capture, verification, storage, observers) a real delivery takes.
 */
export class TestDeliveryService {
  constructor(private readonly deps: TestDeliveryDeps) {}

  async send(account: AccountContext, endpointId: string, payload?: unknown): Promise<TestDeliveryResult> {
    const endpoint = this.deps.endpoints.own(account, endpointId);
    if (!endpoint.isActive) {
      throw new ConflictError(
        `Endpoint ${endpoint.id} is inactive, so its receiver would answer 410 and store nothing; activate it to send a test webhook.`,
        'ENDPOINT_INACTIVE',
      );
    }
    const url = `${this.deps.urls.receiver}/webhook/${endpoint.id}`;
    const nowMs = this.deps.clock.now();
    const scheme = schemeFor(endpoint.validationType);
    const sample =
      payload === undefined
        ? scheme.samplePayload({ endpointId: endpoint.id, nowMs, random: this.deps.random, receiverUrl: url })
        : ownPayload(payload);
    const body = Buffer.from(sample.body, 'utf8');
    const signed =
      !scheme.secret.required || !endpoint.secret
        ? []
        : scheme.sign({
            body,
            secret: endpoint.secret,
            nowMs,
            signatureHeader: endpoint.signatureHeader,
            messageId: `msg_${this.deps.random.bytes(16).toString('hex')}`,
          });

    const headers = new Headers({ 'content-type': sample.contentType, 'user-agent': USER_AGENT });
    for (const [name, value] of [...sample.headers, ...signed]) headers.set(name, value);

    // An endpoint's custom answer waits out its delay first.
    const timeoutMs = (this.deps.timeoutMs ?? DEFAULT_TIMEOUT_MS) + (endpoint.customResponse?.delayMs ?? 0);
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
    } catch (e) {
      if (e instanceof DOMException && e.name === 'TimeoutError') {
        throw new AppError(
          504,
          'TEST_DELIVERY_TIMEOUT',
          `The receiver at ${url} did not answer within ${timeoutMs} ms.`,
        );
      }
      throw new AppError(
        502,
        'TEST_DELIVERY_FAILED',
        `The test webhook could not reach the receiver at ${url}: ${e instanceof Error ? e.message : String(e)}.`,
      );
    }
    // A custom answer's body is the user's: the log id comes in its header instead.
    const text = await res.text();
    return { logId: res.headers.get(LOG_ID_HEADER) ?? logIdFrom(text), status: res.status };
  }
}

/** A caller's payload: an object or array is sent as JSON, a string as is. */
function ownPayload(payload: unknown): SamplePayload {
  if (typeof payload !== 'string')
    return { body: JSON.stringify(payload), contentType: 'application/json', headers: [] };
  return {
    body: payload,
    contentType: looksLikeJson(payload) ? 'application/json' : 'text/plain; charset=utf-8',
    headers: [],
  };
}

function looksLikeJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** The receiver names the stored log in `data.id` when accepted and `error.details.logId` otherwise. */
function logIdFrom(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { data?: { id?: unknown }; error?: { details?: { logId?: unknown } } };
    const id = parsed.data?.id ?? parsed.error?.details?.logId;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}
