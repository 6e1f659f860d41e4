/**
 * The engines serving one store right now. A team server's instances share a
 * PostgreSQL database and each counts the others by their heartbeats
 * (server/storage/postgres/instances-postgres.ts); the embedded store has one
 * engine. Features that split a limit between instances (the receiver's rate
 * limit) read the count here.
 */
export interface InstanceRegistry {
  /** Live engines on this store, this one included: at least 1. Read on the hot path, so answered from memory. */
  liveCount(): number;
}

/** The embedded store (and any backend without a registry): this engine alone. */
export const SOLE_INSTANCE: InstanceRegistry = { liveCount: () => 1 };
