import pg from 'pg';
import type { EngineEvent } from '../../events/event-bus.ts';
import type { EventDraft, EventTransport } from '../../events/event-transport.ts';
import type { Clock } from '../../support/clock.ts';
import type { Sql } from './postgres-database.ts';

/** The channel every instance LISTENs on; a notification only says "read the table". */
const CHANNEL = 'hookscope_events';
/** Rows per read of the table, and per insert of a batch of drafts. */
const BATCH = 500;
/** Kept events at most per `Last-Event-ID` resume: the in-process ring's size. */
const RESUME_LIMIT = 1000;

export interface PostgresEventsOptions {
  db: Sql;
  /** For the dedicated LISTEN connection (a pg.Client of its own, not the pool's). */
  url: string;
  clock: Clock;
  onError: (err: unknown) => void;
  /** The LISTEN connection's application_name (what pg_stat_activity shows). */
  applicationName?: string;
  /** The backstop: the table is read this often even without a notification (default 5 s). */
  pollMs?: number;
  /** How long a missing id is waited for before it is taken as rolled back (default 2 s). */
  gapGraceMs?: number;
  /** Reconnect delays of the LISTEN connection: the first, doubling up to the last (default 100 ms to 5 s). */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** How long events are kept for resume; housekeeping prunes older ones (default one hour). */
  keepMs?: number;
}

interface EventRow {
  id: number;
  account_id: string;
  type: string;
  data: string;
  at: number;
}

/**
 * A team server's events: each publish is a row of the `events` table (its
 * identity is the global SSE id), inserted in the background in batches, one
 * batch in flight per instance so one instance's events keep their order, and
 * NOTIFY sent by the same statement, so after its commit. Every instance,
 * the publisher too, LISTENs on a dedicated connection and on each notification
 * reads the rows after the last id it delivered, in id order. A slow poll is the
 * backstop for a lost notification; a dropped LISTEN connection reconnects with
 * backoff and catches up from the last id delivered.
 *
 * Identity values are taken at insert and committed in any order: a missing id
 * may still commit. Delivery stops before it for `gapGraceMs`, then moves past
 * it (a rolled-back insert leaves a permanent hole); an id committing later than
 * that is not delivered live, though a resume still reads it.
 */
export class PostgresEventTransport implements EventTransport {
  readonly shared = true;
  /**
   * The events table's oid, read at start: ids are global to the table, so every
   * instance answers the same, and a database made anew gives another.
   */
  idSpace = '';
  private sink: (event: EngineEvent) => void = () => {};
  private cursor = 0;
  /** Ids up to this one are no longer waited for (their grace ran out). */
  private skipThrough = 0;
  private gapTimer: NodeJS.Timeout | null = null;
  private pending: EventDraft[] = [];
  private flushing: Promise<void> | null = null;
  private reading: Promise<void> | null = null;
  private readAgain = false;
  private listener: pg.Client | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectDelay: number;
  private poll: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly opts: PostgresEventsOptions) {
    this.reconnectDelay = opts.reconnectMinMs ?? 100;
  }

  deliverTo(sink: (event: EngineEvent) => void): void {
    this.sink = sink;
  }

  /** After the migrations: live from the newest id taken so far, then listening and polling. */
  async start(): Promise<void> {
    const [row] = await this.opts.db.query<{ last: number | null }>(
      `SELECT pg_sequence_last_value(pg_get_serial_sequence('events', 'id')) AS last`,
    );
    this.cursor = row?.last ?? 0;
    const [table] = await this.opts.db.query<{ oid: string }>(`SELECT 'events'::regclass::oid::text AS oid`);
    this.idSpace = `events-${table?.oid ?? 'unknown'}`;
    await this.connect();
    this.poll = setInterval(() => this.read(), this.opts.pollMs ?? 5000);
    this.poll.unref();
  }

  append(draft: EventDraft): void {
    if (this.closed) return;
    this.pending.push(draft);
    this.flushing ??= this.flush();
  }

  async since(accountId: string, afterId: number): Promise<EngineEvent[]> {
    // Up to the cursor only: later ones reach the subscriber live, in order.
    const rows = await this.opts.db.query<EventRow>(
      `SELECT * FROM (
         SELECT id, account_id, type, data, at FROM events
         WHERE account_id = $1 AND id > $2 AND id <= $3 ORDER BY id DESC LIMIT ${RESUME_LIMIT}
       ) kept ORDER BY id`,
      [accountId, afterId, this.cursor],
    );
    return rows.map(toEvent);
  }

  /** Housekeeping: drops events older than `keepMs` (any instance may; deleting twice is harmless). */
  async prune(): Promise<void> {
    const before = this.opts.clock.now() - (this.opts.keepMs ?? 60 * 60 * 1000);
    await this.opts.db.query('DELETE FROM events WHERE at < $1', [before]);
  }

  /** Stores what is still pending, then stops listening and polling. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.poll) clearInterval(this.poll);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.gapTimer) clearTimeout(this.gapTimer);
    await this.flushing;
    await this.reading;
    const client = this.listener;
    this.listener = null;
    await client?.end().catch(() => undefined);
  }

  /** Clears `flushing` in the same step as it sees nothing pending, so no draft is left behind. */
  private async flush(): Promise<void> {
    try {
      await this.insertPending();
    } finally {
      this.flushing = null;
    }
  }

  private async insertPending(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, BATCH);
      try {
        // A data-modifying CTE runs to completion; the notification goes out when the statement commits.
        await this.opts.db.query(
          `WITH added AS (
             INSERT INTO events (account_id, type, data, at)
             SELECT a, t, d, at FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
               WITH ORDINALITY AS u(a, t, d, at, n) ORDER BY n
             RETURNING id
           ) SELECT pg_notify('${CHANNEL}', '') FROM (SELECT count(*) FROM added) c`,
          [
            batch.map((e) => e.accountId),
            batch.map((e) => e.type),
            batch.map((e) => JSON.stringify(e.data ?? null)),
            batch.map((e) => e.at),
          ],
          'hookscope_events_append',
        );
      } catch (e) {
        this.opts.onError(e);
      }
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.opts.url,
      application_name: this.opts.applicationName ?? 'hookscope-events',
    });
    const dropped = (err?: unknown): void => this.dropped(client, err);
    client.on('error', dropped);
    client.on('end', () => dropped());
    client.on('notification', () => this.read());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (e) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      throw e;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    this.reconnectDelay = this.opts.reconnectMinMs ?? 100;
    // Whatever was committed while no connection listened.
    this.read();
  }

  private dropped(client: pg.Client, err?: unknown): void {
    if (this.listener !== client) return;
    this.listener = null;
    client.end().catch(() => undefined);
    if (this.closed) return;
    if (err) this.opts.onError(err);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(delay * 2, this.opts.reconnectMaxMs ?? 5000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.closed) return;
      this.connect().catch((e: unknown) => {
        this.opts.onError(e);
        if (!this.closed) this.scheduleReconnect();
      });
    }, delay);
    this.reconnectTimer.unref();
  }

  /** Reads and delivers what follows the cursor; a call during a read makes it read once more after. */
  private read(): void {
    if (this.closed && !this.reading) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.readRows()
      .catch((e: unknown) => this.opts.onError(e))
      .finally(() => {
        this.reading = null;
        if (this.readAgain && !this.closed) {
          this.readAgain = false;
          this.read();
        }
      });
  }

  private async readRows(): Promise<void> {
    for (;;) {
      const rows = await this.opts.db.query<EventRow>(
        `SELECT id, account_id, type, data, at FROM events WHERE id > $1 ORDER BY id LIMIT ${BATCH}`,
        [this.cursor],
        'hookscope_events_read',
      );
      for (const row of rows) {
        if (row.id !== this.cursor + 1 && row.id - 1 > this.skipThrough) {
          this.waitForGap(row.id - 1);
          return;
        }
        this.cursor = row.id;
        this.sink(toEvent(row));
      }
      if (rows.length < BATCH) return;
    }
  }

  /** Ids up to `through` may still commit: wait for them a grace period, then read past them. */
  private waitForGap(through: number): void {
    if (this.gapTimer || this.closed) return;
    this.gapTimer = setTimeout(() => {
      this.gapTimer = null;
      this.skipThrough = Math.max(this.skipThrough, through);
      this.read();
    }, this.opts.gapGraceMs ?? 2000);
    this.gapTimer.unref();
  }
}

function toEvent(row: EventRow): EngineEvent {
  // The row was written from a typed draft (append); the table holds nothing else.
  const data: unknown = JSON.parse(row.data);
  return { id: row.id, accountId: row.account_id, type: row.type, data, at: row.at } as EngineEvent;
}
