import type { InstanceRegistry } from '../../instances/instance-registry.ts';
import type { Clock } from '../../support/clock.ts';
import type { PostgresDatabase } from './postgres-database.ts';

export interface PostgresInstancesOptions {
  db: PostgresDatabase;
  clock: Clock;
  /** This instance's row id, unique per start. */
  id: string;
  /** How often this instance renews its heartbeat and recounts the others. */
  heartbeatMs: number;
  /** An instance whose last beat is older than this no longer counts (a few intervals: one late beat is not a death). */
  graceMs: number;
  onError: (err: unknown) => void;
}

/**
 * A team server's instances, counted by their heartbeats in the `instances`
 * table (instances-migrations.ts). Each instance renews its own row every
 * `heartbeatMs` and, in the same statement, counts the rows renewed within
 * `graceMs`; `liveCount` answers that figure from memory, so the receiver's hot
 * path never waits for the database. A dead instance stops counting once its
 * last beat is `graceMs` old, as seen at the others' next beat; a clean stop
 * removes the row, seen at their next beat.
 */
export class PostgresInstanceRegistry implements InstanceRegistry {
  private live = 1;
  private timer: NodeJS.Timeout | null = null;
  // Beats run one after another: a slow database never piles them up.
  private beating: Promise<void> = Promise.resolve();

  constructor(private readonly options: PostgresInstancesOptions) {}

  liveCount(): number {
    return this.live;
  }

  /** Registers this instance (the first beat, awaited: the count is right before the first delivery) and keeps beating. */
  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => {
      this.beating = this.beating.then(() => this.beat().catch(this.options.onError));
    }, this.options.heartbeatMs);
    this.timer.unref();
  }

  /** A clean stop: no more beats, and the row goes at once. */
  async stop(): Promise<void> {
    // Never started (start-up failed before it): no row to remove, and perhaps no database to reach.
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    await this.options.db.query('DELETE FROM instances WHERE id = $1', [this.options.id]);
  }

  /** Housekeeping: removes the rows of instances that died without a clean stop (they no longer count anyway). */
  async prune(): Promise<void> {
    await this.options.db.query('DELETE FROM instances WHERE heartbeat_at <= $1', [this.cutoff()]);
  }

  private async beat(): Promise<void> {
    const now = this.options.clock.now();
    // An upsert, not an update: a row pruned while this instance was stalled past the grace comes back.
    // The count leaves this row out because a statement does not see its own CTE's writes.
    const [row] = await this.options.db.query<{ others: number }>(
      `WITH me AS (
         INSERT INTO instances (id, started_at, heartbeat_at) VALUES ($1, $2, $2)
         ON CONFLICT (id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at
       )
       SELECT count(*)::int AS others FROM instances WHERE id <> $1 AND heartbeat_at > $3`,
      [this.options.id, now, this.cutoff(now)],
    );
    this.live = 1 + (row?.others ?? 0);
  }

  private cutoff(now = this.options.clock.now()): number {
    return now - this.options.graceMs;
  }
}
