import type { Store, WriteAck, WriteOp } from '../../server/store/store-types.ts';

/**
 * A store as the logs repository wrote it before logs migration 16 (logs_headers_spilled),
 * for tests that fill a store at an older schema through today's repository: a log's
 * headers inline in `raw_headers` and its body alone in the blob files. Today's insert
 * spills headers and body as one value with the log's row and places the body after the
 * headers; this rewrites that pair of ops into the older pair. Ops naming what the older
 * schema lacks (the headers' and large bodies' signatures' wipes) are left out: such
 * values were never written there.
 */
export function headersInline(store: Store): Store {
  const rewrite = (ops: WriteOp[]): WriteOp[] => {
    let body: Uint8Array | undefined;
    return ops.flatMap((op): WriteOp[] => {
      if (op.sql.includes('headers_length, headers_at)') && op.spill) {
        const headersLength = Number(op.params.at(-1));
        const params = op.params.slice(0, -1);
        params[6] = Buffer.from(op.spill.subarray(0, headersLength)).toString('utf8');
        body = op.spill.subarray(headersLength);
        const sql = op.sql.replace(', headers_length, headers_at)', ')').replace(/, \?, \?\)$/, ')');
        return [{ ...op, sql, params, spill: undefined }];
      }
      if (op.sql.includes('headers_at + headers_length')) {
        const sql = `INSERT INTO log_bodies (log_seq, body, length, location)
          VALUES ((SELECT seq FROM logs WHERE id = ?1), X'', ?2, ?3)`;
        return [{ ...op, sql, spill: body }];
      }
      if (op.sql.includes('l.headers_at IS NOT NULL') || op.sql.includes('log_search_spilled')) return [];
      return [op];
    });
  };
  return new Proxy(store, {
    get: (target, key) => {
      if (key === 'write') return (ops: WriteOp[], ack?: WriteAck) => target.write(rewrite(ops), ack);
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
