export interface QueuedForward {
  /** The item's place in the queue: increasing in enqueue order, never reused. */
  seq: number;
  accountId: string;
  endpointId: string;
  logId: string;
  enqueuedAt: number;
  attempts: number;
}

/**
 * The durable forward queue: one item per accepted delivery waiting for its
 * endpoint's forwardUrl. What the Forwarder needs, whatever the backend
 * (server/storage/sqljs/forward-queue-sqljs.ts,
 * server/storage/postgres/forward-queue-postgres.ts).
 * tests/contract/replay-contract.ts holds every backend to this contract.
 *
 * Each endpoint's items leave in the order they came (first in, first out).
 * Items are addressed by endpoint and by `seq`, not by account: endpoint ids are
 * unique across accounts, and only the forwarder, which owns the queue, calls.
 *
 * An item lives no longer than its log: deleting the log removes it in the same
 * write (sql.js: the replays_follow_logs trigger; PostgreSQL: a foreign key ON
 * DELETE CASCADE). An item enqueued after its log is gone is not an error:
 * `enqueue` resolves either way. PostgreSQL stores nothing then; sql.js stores it
 * beyond its trigger's reach, and the forwarder drops it on its turn (the log is
 * not found).
 */
export interface ForwardQueueRepository {
  /**
   * Appends an item with 0 attempts at the tail of its endpoint's queue. Durable
   * when it resolves: the item survives a crash or kill of the engine from then
   * on (the receiver answers the sender after this), and every read after it sees it.
   */
  enqueue(item: Omit<QueuedForward, 'seq' | 'attempts'>): Promise<void>;

  /** The endpoint's oldest queued item, or undefined when its queue is empty. */
  head(endpointId: string): Promise<QueuedForward | undefined>;

  /** How many items the endpoint has queued. */
  pending(endpointId: string): Promise<number>;

  /** Every endpoint with at least one item queued, once each, in no particular order (to resume after a restart). */
  endpointsWithPending(): Promise<string[]>;

  /** Sets the attempts of item `seq`; an unknown `seq` changes nothing and does not fail. */
  recordAttempt(seq: number, attempts: number): Promise<void>;

  /** Removes item `seq`; an unknown `seq` changes nothing and does not fail. */
  remove(seq: number): Promise<void>;

  /** Removes every item of the endpoint; other endpoints' stay. */
  clearEndpoint(endpointId: string): Promise<void>;

  /**
   * Claims or renews the lease on the endpoint's lane for `owner` until
   * `now + leaseMs`, and answers whether `owner` holds it. Granted when the lane
   * is free, already `owner`'s, or its lease ran out before `now` (its owner
   * stopped renewing: it died); refused while another owner's lease runs. Of
   * owners claiming at once, one is granted. Only the holder works the lane's
   * queue, so several engines on one database forward each item once and in
   * order. sql.js serves one engine: always granted, nothing stored.
   */
  claimLane(endpointId: string, owner: string, now: number, leaseMs: number): Promise<boolean>;

  /** Frees the lane if `owner` holds it (its queue is empty, or the engine stops); otherwise changes nothing. */
  releaseLane(endpointId: string, owner: string): Promise<void>;

  /**
   * Endpoints with items queued whose lane is free or whose lease ran out before
   * `now`, once each: work queued by another engine that no engine is doing.
   * sql.js: none (its one engine is told of every item it queues).
   */
  unclaimedWithPending(now: number): Promise<string[]>;
}
