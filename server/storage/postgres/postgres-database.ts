import pg from 'pg';

/** Runs SQL and answers the rows: the pool, or one connection (a session, a transaction). */
export interface Sql {
  /**
   * `name` makes it a prepared statement, parsed and planned once per connection: for
   * statements run per delivery, where planning the same text again took about a tenth
   * of PostgreSQL's time under the ingest load (perf, docs/PERFORMANCE.md).
   */
  query<R extends object>(text: string, params?: readonly unknown[], name?: string): Promise<R[]>;
}

export interface PostgresDatabaseOptions {
  url: string;
  /**
   * Told of an idle pooled connection's failure (the server restarted, a
   * connection was terminated). The pool drops that connection and opens
   * another on next use; without a listener the error would end the process.
   */
  onError: (err: unknown) => void;
  /** Connections at most (pg's default: 10). */
  max?: number;
}

const INT8 = pg.types.builtins.INT8;

/**
 * Epoch milliseconds are `bigint` columns, which pg answers as strings by
 * default (an int8 can exceed 2^53). The domain holds them as numbers, so they
 * come back as numbers; a value JavaScript cannot hold exactly fails its query
 * rather than come back rounded.
 */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${text} is beyond JavaScript's safe integers`);
  return n;
}

// Given to this pool only: pg.types.setTypeParser would change every pg user in the process.
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: (id, format) =>
    id === INT8 ? parseInt8 : (pg.types.getTypeParser(id, format) as (text: string) => unknown),
};

/**
 * The PostgreSQL backend's connection pool (node-postgres). Repositories run
 * their SQL through `query` (any pooled connection), or through `transaction`
 * when several statements must commit together.
 */
export class PostgresDatabase implements Sql {
  private readonly pool: pg.Pool;

  constructor(options: PostgresDatabaseOptions) {
    this.pool = new pg.Pool({ connectionString: options.url, max: options.max, types: TYPES });
    this.pool.on('error', options.onError);
  }

  async query<R extends object>(text: string, params: readonly unknown[] = [], name?: string): Promise<R[]> {
    return (await this.pool.query<R>({ text, values: [...params], name })).rows;
  }

  /** Runs `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.session((s) => transaction(s, fn));
  }

  /**
   * Runs `fn` on one connection held for its whole duration: what a
   * session-level advisory lock needs (it belongs to the connection).
   */
  async session<T>(fn: (session: Sql) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      const result = await fn({
        query: async <R extends object>(text: string, params: readonly unknown[] = [], name?: string) =>
          (await client.query<R>({ text, values: [...params], name })).rows,
      });
      client.release();
      return result;
    } catch (e) {
      // Discarded, not returned to the pool: after a failure it may still be inside a transaction or hold a lock.
      client.release(e instanceof Error ? e : true);
      throw e;
    }
  }

  /** Waits for connections in use to be released, then closes them all. */
  close(): Promise<void> {
    return this.pool.end();
  }
}

/** BEGIN, `fn`, COMMIT on one connection (a session); ROLLBACK and rethrow when `fn` throws. */
export async function transaction<T>(session: Sql, fn: (tx: Sql) => Promise<T>): Promise<T> {
  await session.query('BEGIN');
  try {
    const result = await fn(session);
    await session.query('COMMIT');
    return result;
  } catch (e) {
    // The first error is the one worth reporting; a failed ROLLBACK (a broken connection) would hide it.
    await session.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
