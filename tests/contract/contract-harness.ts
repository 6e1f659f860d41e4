/**
 * How a contract suite reaches one backend. Each test calls `make()` for a
 * repository over an empty database of its own and `close()` in `finally`, so
 * tests never share data.
 */
export interface ContractHarness<R> {
  /** A repository over a new, empty, migrated database. */
  make(): Promise<R>;
  /** Closes and removes everything `make()` opened since the last `close()`. */
  close(): Promise<void>;
}

/** Runs `fn` on a fresh repository and releases it whatever happens. */
export async function withRepository<R>(harness: ContractHarness<R>, fn: (repo: R) => Promise<void>): Promise<void> {
  const repo = await harness.make();
  try {
    await fn(repo);
  } finally {
    await harness.close();
  }
}
