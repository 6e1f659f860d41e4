/**
 * Every advisory lock Hookscope takes in PostgreSQL, in one place so that no two
 * purposes share a key. The two-key form (`pg_advisory_lock(int, int)`) keeps
 * them apart from other applications' locks on the same server: the first key
 * is Hookscope's own, 0x486f6f6b ('Hook' in ASCII), the second names the purpose.
 * A key is part of how instances of different versions agree: never renumber one.
 */
const HOOKSCOPE = 0x486f6f6b;

export const ADVISORY_LOCKS = {
  /** Held while migrations are checked and applied (migration-runner.ts). */
  migrations: [HOOKSCOPE, 1],
  /** Held by the one instance running a housekeeping round (housekeeping-lock.ts). */
  housekeeping: [HOOKSCOPE, 2],
} as const satisfies Record<string, readonly [number, number]>;
