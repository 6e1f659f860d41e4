import type { ReceiverEndpoint } from '../endpoints/endpoint-types.ts';
import { NotFoundError } from '../errors/app-errors.ts';
import type { QueryObject } from '../logs/log-types.ts';
import type { DeliveryObserver, StoredDelivery } from '../receiver/delivery-observer.ts';
import { backoffDelay } from '../support/backoff.ts';
import { isoTime, type Clock } from '../support/clock.ts';
import type { IdGenerator } from '../support/ids.ts';
import type { Random } from '../support/random.ts';
import { systemScheduler, type Scheduler } from '../support/scheduler.ts';
import type { ForwardQueueRepository, QueuedForward } from './forward-queue-repository.ts';
import { send as httpSend, type SendInput, type SendResult } from './http-sender.ts';
import { joinSubPath, UnsafeSubPathError } from './join-sub-path.ts';
import { buildHeaders } from './outgoing-request.ts';
import type { ReplayService } from './replay-service.ts';
import type { ForwardState, ReplayFailure } from './replay-types.ts';
import type { ForwardStatus } from './replay-schemas.ts';

export interface ForwarderDeps {
  queue: ForwardQueueRepository;
  replays: ReplayService;
  /**
   * The engine's endpoint table. `lookup`, where given, also reads the database
   * on a miss: on a team server an endpoint created through another engine a
   * moment ago must not be taken for a deleted one (whose queue is dropped).
   */
  endpoints: {
    forReceiver(id: string): ReceiverEndpoint | undefined;
    lookup?(id: string): Promise<ReceiverEndpoint | undefined>;
  };
  /** `forward.updated` to the endpoint's account; the engine passes its event bus (typed by server/events/event-map.ts). */
  events: { publish: (accountId: string, type: 'forward.updated', data: ForwardStatus) => void };
  clock: Clock;
  random: Random;
  ids: IdGenerator;
  /** Retry delays while the target is down (doubling with jitter) and each attempt's time limit. */
  policy: { initialBackoffMs: number; maxBackoffMs: number; timeoutMs: number };
  /**
   * Lanes shared with other engines on one database: this engine's id as lease
   * owner, how long a lease runs, how often to look for work no engine holds.
   */
  lanes: { owner: string; leaseMs: number; scanIntervalMs: number };
  onError: (err: unknown) => void;
  scheduler?: Scheduler;
  send?: (input: SendInput) => Promise<SendResult>;
}

/** One endpoint's delivery lane: at most one loop, so its deliveries go out in order. */
interface Lane {
  endpointId: string;
  state: Exclude<ForwardState, 'disabled'>;
  /** Set by wake(); the loop runs again while it is set. */
  wanted: boolean;
  running: Promise<void> | null;
  timer: unknown;
  nextAttemptAt: number | null;
  attempts: number;
  lastError: (ReplayFailure & { at: number }) | null;
  inFlight: AbortController | null;
  /** This engine holds the lane's lease (always, on the embedded store, while it works the lane). */
  held: boolean;
  /**
   * The lane's claims, renewals and release, one after another: a renewal
   * answered after the release would otherwise take the lane again and keep it
   * with nothing left to work.
   */
  leaseOps: Promise<unknown>;
}

type EndpointUrls = Pick<ReceiverEndpoint, 'id' | 'forwardUrl'>;

type Outcome = 'delivered' | 'rejected' | 'retry' | 'dropped' | 'stopped';

/**
 * Forwards every accepted delivery to its endpoint's forwardUrl as it arrives
 * (`stripe listen --forward-to`). The receiver's observer only enqueues, durably,
 * and wakes the lane: the sender never waits for the forward target. A lane
 * delivers its queue head first; while the target is down (no answer, timeout,
 * 5xx) it retries that head with exponential backoff and jitter and keeps the
 * rest waiting behind it, so order holds. A 4xx is recorded and the item dropped:
 * the target refused that delivery and would refuse it again.
 *
 * Engines sharing one database (a team server) share the queue: an engine works
 * a lane only while it holds the lane's lease (ForwardQueueRepository.claimLane),
 * renews it while it works, and releases it when the queue is empty or it stops.
 * Work queued through another engine's receiver is found by a periodic scan for
 * lanes no engine holds, including those whose holder died and stopped renewing.
 */
export class Forwarder implements DeliveryObserver {
  private readonly lanes = new Map<string, Lane>();
  private readonly scheduler: Scheduler;
  private readonly send: (input: SendInput) => Promise<SendResult>;
  private stopped = false;
  private scanTimer: unknown = null;
  private heartbeatTimer: unknown = null;

  constructor(private readonly deps: ForwarderDeps) {
    this.scheduler = deps.scheduler ?? systemScheduler;
    this.send = deps.send ?? httpSend;
  }

  /** Resumes every queue left in the store (after a restart), then keeps looking for work and renewing leases. */
  async start(): Promise<void> {
    for (const endpointId of await this.deps.queue.endpointsWithPending()) this.wake(endpointId);
    this.scheduleScan();
    this.scheduleHeartbeat();
  }

  /** The receiver's hook: enqueue an accepted delivery (journaled before the sender's 2xx) and wake its lane. */
  async stored(delivery: StoredDelivery): Promise<void> {
    if (delivery.status !== 'success' || this.stopped) return;
    const endpoint = this.deps.endpoints.forReceiver(delivery.endpointId);
    if (!endpoint?.forwardUrl) return;
    await this.deps.queue.enqueue({
      accountId: delivery.accountId,
      endpointId: delivery.endpointId,
      logId: delivery.id,
      enqueuedAt: this.deps.clock.now(),
    });
    this.wake(delivery.endpointId);
  }

  /** Follows a PATCH of the endpoint: a cleared forwardUrl drops the queue; a new one is tried at once. */
  async endpointUpdated(before: EndpointUrls, after: EndpointUrls): Promise<void> {
    if (before.forwardUrl === after.forwardUrl || this.stopped) return;
    const lane = this.lanes.get(after.id);
    if (lane) this.cancelTimer(lane);
    if (after.forwardUrl === null) {
      await this.deps.queue.clearEndpoint(after.id);
      if (lane) Object.assign(lane, { state: 'idle', attempts: 0, nextAttemptAt: null });
      this.publish(after.id);
      return;
    }
    this.wake(after.id);
  }

  /** The queue as the API shows it. Throws NotFoundError for a missing or another account's endpoint. */
  async status(accountId: string, endpointId: string): Promise<ForwardStatus> {
    const endpoint = this.deps.endpoints.forReceiver(endpointId);
    if (!endpoint || endpoint.accountId !== accountId) {
      throw new NotFoundError(`Endpoint ${endpointId} was not found.`, 'ENDPOINT_NOT_FOUND');
    }
    const [pending, delivered] = await Promise.all([
      this.deps.queue.pending(endpointId),
      this.deps.replays.lastForwardDelivered(accountId, endpointId),
    ]);
    const lane = this.lanes.get(endpointId);
    return {
      endpointId,
      forwardUrl: endpoint.forwardUrl,
      state: endpoint.forwardUrl === null ? 'disabled' : (lane?.state ?? 'idle'),
      pending,
      nextAttemptAt: lane?.nextAttemptAt != null ? isoTime(lane.nextAttemptAt) : null,
      lastError: lane?.lastError
        ? { code: lane.lastError.code, message: lane.lastError.message, at: isoTime(lane.lastError.at) }
        : null,
      attempts: lane?.attempts ?? 0,
      lastDeliveredAt: delivered === null ? null : isoTime(delivered),
    };
  }

  /** Cancels timers and in-flight requests and waits for every lane to settle; nothing is sent after. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of [this.scanTimer, this.heartbeatTimer]) if (timer !== null) this.scheduler.clearTimeout(timer);
    for (const lane of this.lanes.values()) {
      this.cancelTimer(lane);
      lane.inFlight?.abort();
    }
    await Promise.all([...this.lanes.values()].flatMap((l) => (l.running ? [l.running] : [])));
    // Another engine takes the lanes over at its next scan rather than when the leases run out.
    for (const lane of this.lanes.values()) await this.release(lane).catch(this.deps.onError);
  }

  /** Wakes the lanes with work that no engine holds: queued through another engine, or left by one that died. */
  private scheduleScan(): void {
    if (this.stopped) return;
    this.scanTimer = this.scheduler.setTimeout(() => {
      this.scanTimer = null;
      this.deps.queue
        .unclaimedWithPending(this.deps.clock.now())
        .then((endpointIds) => {
          for (const endpointId of endpointIds) this.wake(endpointId);
        })
        .catch((e: unknown) => {
          if (!this.stopped) this.deps.onError(e);
        })
        .finally(() => this.scheduleScan());
    }, this.deps.lanes.scanIntervalMs);
  }

  /**
   * Renews the leases of the lanes this engine holds, three times per lease, so
   * they outlast a slow target's attempt and a retry's backoff. A lane another
   * engine has taken over meanwhile (this one stalled past its lease) is left to it.
   */
  private scheduleHeartbeat(): void {
    if (this.stopped) return;
    this.heartbeatTimer = this.scheduler.setTimeout(() => {
      this.heartbeatTimer = null;
      const held = [...this.lanes.values()].filter((l) => l.held);
      Promise.all(
        held.map(async (lane) => {
          if (await this.renew(lane)) return;
          this.cancelTimer(lane);
          Object.assign(lane, { state: 'idle', nextAttemptAt: null, attempts: 0 });
        }),
      )
        .catch((e: unknown) => {
          if (!this.stopped) this.deps.onError(e);
        })
        .finally(() => this.scheduleHeartbeat());
    }, this.deps.lanes.leaseMs / 3);
  }

  /** Claims or renews the lane's lease; false when another engine holds it. */
  private hold(lane: Lane): Promise<boolean> {
    return this.leaseOp(lane, () => this.claim(lane));
  }

  /** The heartbeat's renewal of a lane still held when its turn comes; false when another engine took it over. */
  private renew(lane: Lane): Promise<boolean> {
    return this.leaseOp(lane, () => (lane.held ? this.claim(lane) : Promise.resolve(true)));
  }

  private release(lane: Lane): Promise<void> {
    return this.leaseOp(lane, async () => {
      if (!lane.held) return;
      lane.held = false;
      await this.deps.queue.releaseLane(lane.endpointId, this.deps.lanes.owner);
    });
  }

  private async claim(lane: Lane): Promise<boolean> {
    const { owner, leaseMs } = this.deps.lanes;
    lane.held = await this.deps.queue.claimLane(lane.endpointId, owner, this.deps.clock.now(), leaseMs);
    return lane.held;
  }

  private leaseOp<T>(lane: Lane, op: () => Promise<T>): Promise<T> {
    const result = lane.leaseOps.then(op);
    lane.leaseOps = result.catch(() => undefined);
    return result;
  }

  private wake(endpointId: string): void {
    if (this.stopped) return;
    let lane = this.lanes.get(endpointId);
    if (!lane) {
      lane = {
        endpointId,
        state: 'idle',
        wanted: false,
        running: null,
        timer: null,
        nextAttemptAt: null,
        attempts: 0,
        lastError: null,
        inFlight: null,
        held: false,
        leaseOps: Promise.resolve(),
      };
      this.lanes.set(endpointId, lane);
    }
    lane.wanted = true;
    // While retrying, new deliveries wait behind the head; the timer wakes the lane.
    if (lane.running || lane.timer !== null) {
      this.publish(endpointId);
      return;
    }
    this.startLoop(lane);
  }

  private startLoop(lane: Lane): void {
    lane.running = this.run(lane).finally(() => {
      lane.running = null;
      // A wake() between the loop's last check and here found it still running: start again.
      if (lane.wanted && lane.timer === null && !this.stopped) this.startLoop(lane);
    });
  }

  private async run(lane: Lane): Promise<void> {
    while (lane.wanted && lane.timer === null && !this.stopped) {
      lane.wanted = false;
      try {
        await this.drain(lane);
      } catch (e) {
        // A store failure: report it and retry later rather than spin.
        this.deps.onError(e);
        if (!this.stopped)
          this.retryLater(lane, { code: 'FORWARD_QUEUE_ERROR', message: e instanceof Error ? e.message : String(e) });
      }
    }
  }

  private async drain(lane: Lane): Promise<void> {
    // Another engine works this lane: it delivers what is queued, in order.
    if (!(await this.hold(lane))) {
      Object.assign(lane, { state: 'idle', nextAttemptAt: null, attempts: 0 });
      return;
    }
    for (;;) {
      const head = await this.deps.queue.head(lane.endpointId);
      const endpoint = await (this.deps.endpoints.lookup?.(lane.endpointId) ??
        this.deps.endpoints.forReceiver(lane.endpointId));
      if (this.stopped) return;
      if (!head || !endpoint || endpoint.forwardUrl === null) {
        // A deleted endpoint or a cleared forwardUrl drops what is left.
        if (head) await this.deps.queue.clearEndpoint(lane.endpointId);
        Object.assign(lane, { state: 'idle', nextAttemptAt: null, attempts: 0 });
        await this.release(lane);
        // Queued through another engine while this one held the lane: that engine found it taken.
        if (!head && endpoint?.forwardUrl && (await this.deps.queue.head(lane.endpointId))) {
          if (await this.hold(lane)) continue;
        }
        if (endpoint) this.publish(lane.endpointId);
        else this.lanes.delete(lane.endpointId);
        return;
      }
      lane.state = 'delivering';
      lane.attempts = head.attempts;
      lane.nextAttemptAt = null;
      this.publish(lane.endpointId);
      const outcome = await this.attempt(lane, head, endpoint.forwardUrl);
      if (outcome === 'stopped') return;
      if (outcome === 'retry') return;
      // Only the holder removes: an engine that stalled past its lease leaves the item to the one that took over.
      if (!(await this.hold(lane))) {
        Object.assign(lane, { state: 'idle', nextAttemptAt: null, attempts: 0 });
        return;
      }
      await this.deps.queue.remove(head.seq);
      lane.attempts = 0;
    }
  }

  private async attempt(lane: Lane, head: QueuedForward, forwardUrl: string): Promise<Outcome> {
    const account = { id: head.accountId, name: '' };
    let sendable;
    try {
      sendable = await this.deps.replays.sendable(account, head.logId);
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
      // Evicted by retention or deleted before its turn: nothing left to send.
      lane.lastError = {
        code: 'LOG_NOT_FOUND',
        message: `Log ${head.logId} was removed before it could be forwarded.`,
        at: this.deps.clock.now(),
      };
      return 'dropped';
    }
    const { log, forwarded } = sendable;
    const { body } = log;
    let url: URL;
    try {
      url = forwardTarget(forwardUrl, log.path, log.query);
    } catch (e) {
      if (!(e instanceof UnsafeSubPathError)) throw e;
      return this.notSendable(lane, head, log.method, forwardUrl, e);
    }
    const headers = buildHeaders(log.rawHeaders, url, body, {}, [], forwarded);
    const abort = new AbortController();
    lane.inFlight = abort;
    const createdAt = this.deps.clock.now();
    const result = await this.send({
      url,
      method: log.method,
      headers,
      body,
      timeoutMs: this.deps.policy.timeoutMs,
      signal: abort.signal,
    });
    lane.inFlight = null;
    if (this.stopped) return 'stopped';
    // Deleted meanwhile: record nothing (its history is being removed). No await between check and write.
    if (!this.deps.endpoints.forReceiver(head.endpointId)) return 'dropped';
    await this.deps.replays.record({
      id: this.deps.ids.opaque('rp'),
      accountId: head.accountId,
      logId: head.logId,
      endpointId: head.endpointId,
      targetUrl: url.href,
      method: log.method,
      createdAt,
      trigger: 'forward',
      edited: false,
      requestHeaders: headers,
      requestBody: null,
      requestBodySize: null,
      ...result,
    });
    const now = this.deps.clock.now();
    if (result.error || result.status === null || result.status >= 500) {
      const failure = result.error ?? {
        code: 'TARGET_ERROR',
        message: `${url.href} answered ${result.status ?? 'nothing'}; retrying.`,
      };
      const attempts = head.attempts + 1;
      await this.deps.queue.recordAttempt(head.seq, attempts);
      lane.attempts = attempts;
      this.retryLater(lane, failure);
      return 'retry';
    }
    if (result.status >= 400) {
      lane.lastError = {
        code: 'TARGET_REJECTED',
        message: `${url.href} answered ${result.status} to log ${head.logId}; the delivery was dropped (a 4xx is not retried).`,
        at: now,
      };
      return 'rejected';
    }
    return 'delivered';
  }

  /**
   * A delivery whose sub-path would lead outside the forwardUrl (`/../admin`,
   * `%2e%2e`, `..%5c`): a sender controls that path, and the signatures most
   * providers use cover only the body, so one captured delivery re-sent with
   * such a path would reach any route of the owner's server. Nothing is sent; the
   * attempt is recorded as a failed forward and the item dropped, since it can
   * never succeed.
   */
  private async notSendable(
    lane: Lane,
    head: QueuedForward,
    method: string,
    forwardUrl: string,
    e: UnsafeSubPathError,
  ): Promise<Outcome> {
    // Deleted meanwhile: record nothing (its history is being removed).
    if (!this.deps.endpoints.forReceiver(head.endpointId)) return 'dropped';
    const now = this.deps.clock.now();
    const error: ReplayFailure = {
      code: e.code,
      message: `Log ${head.logId} was not forwarded, and will not be: ${e.message} A request is never sent outside the forwardUrl; the capture is kept as it arrived.`,
    };
    await this.deps.replays.record({
      id: this.deps.ids.opaque('rp'),
      accountId: head.accountId,
      logId: head.logId,
      endpointId: head.endpointId,
      // The configured target: the joined URL was never built.
      targetUrl: forwardUrl,
      method,
      createdAt: now,
      trigger: 'forward',
      edited: false,
      requestHeaders: [],
      requestBody: null,
      requestBodySize: null,
      status: null,
      responseHeaders: [],
      responseBody: Buffer.alloc(0),
      responseTruncated: false,
      responseTime: 0,
      error,
    });
    lane.lastError = { ...error, at: now };
    return 'rejected';
  }

  private retryLater(lane: Lane, failure: ReplayFailure): void {
    const { initialBackoffMs, maxBackoffMs } = this.deps.policy;
    const delay = backoffDelay(
      Math.max(lane.attempts, 1),
      { minMs: initialBackoffMs, maxMs: maxBackoffMs },
      this.deps.random,
    );
    lane.state = 'retrying';
    lane.lastError = { ...failure, at: this.deps.clock.now() };
    lane.nextAttemptAt = this.deps.clock.now() + delay;
    lane.timer = this.scheduler.setTimeout(() => {
      lane.timer = null;
      this.wake(lane.endpointId);
    }, delay);
    this.publish(lane.endpointId);
  }

  private cancelTimer(lane: Lane): void {
    if (lane.timer !== null) this.scheduler.clearTimeout(lane.timer);
    lane.timer = null;
  }

  /** Tells live clients the queue changed; the status is computed when published. */
  private publish(endpointId: string): void {
    const endpoint = this.deps.endpoints.forReceiver(endpointId);
    if (!endpoint || this.stopped) return;
    this.status(endpoint.accountId, endpointId)
      .then((s) => {
        if (!this.stopped) this.deps.events.publish(endpoint.accountId, 'forward.updated', s);
      })
      .catch((e: unknown) => {
        if (!this.stopped) this.deps.onError(e);
      });
  }
}

/**
 * The forwardUrl with the delivery's sub-path below the endpoint and its query
 * appended, as a tunnel would pass them on (`/webhook/ep_x/github?x=1` ->
 * `<forwardUrl>/github?x=1`). Throws UnsafeSubPathError for a sub-path that
 * could lead outside the forwardUrl's path.
 */
export function forwardTarget(forwardUrl: string, path: string, query: QueryObject): URL {
  const url = joinSubPath(forwardUrl, path);
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, v);
  }
  return url;
}
