import { ADVISORY_LOCKS } from './advisory-locks.ts';
import type { PostgresDatabase } from './postgres-database.ts';

/**
 * Runs `round` only when no other instance on this database is running one:
 * the round holds a session-level advisory lock on its own connection, taken
 * without waiting (an instance that finds it held skips this round; the holder
 * sweeps for everyone). Answers whether the round ran. When the connection
 * fails, PostgresDatabase.session discards it, which releases the lock.
 */
export async function inHousekeepingLock(db: PostgresDatabase, round: () => Promise<void>): Promise<boolean> {
  return db.session(async (session) => {
    const [row] = await session.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1, $2) AS locked',
      ADVISORY_LOCKS.housekeeping,
    );
    if (!row?.locked) return false;
    try {
      await round();
    } finally {
      await session.query('SELECT pg_advisory_unlock($1, $2)', ADVISORY_LOCKS.housekeeping);
    }
    return true;
  });
}
