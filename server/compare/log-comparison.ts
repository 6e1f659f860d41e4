import type { QueryObject } from '../logs/log-types.ts';
import type { StoredLogWithBody } from '../logs/logs-service.ts';
import { diffBodies } from './body-diff.ts';
import type { LogComparisonView } from './compare-schemas.ts';
import { diffNamedValues, isEmptyDiff } from './named-values-diff.ts';

/** One side of a comparison: the log's request line and sizes, receivedAt in epoch ms. */
export type ComparedLog = Omit<LogComparisonView['a'], 'receivedAt'> & { receivedAt: number };

/** Two logs compared, each side as ComparedLog (compare-views.ts makes the API's form). */
export type LogComparison = Omit<LogComparisonView, 'a' | 'b'> & { a: ComparedLog; b: ComparedLog };

function side(l: StoredLogWithBody): ComparedLog {
  return {
    id: l.id,
    endpointId: l.endpointId,
    method: l.method,
    path: l.path,
    receivedAt: l.receivedAt,
    status: l.status,
    contentType: l.contentType,
    size: l.size,
    truncated: l.truncated,
  };
}

const queryPairs = (q: QueryObject): [string, string][] =>
  Object.entries(q).flatMap(([name, v]) =>
    (Array.isArray(v) ? v : [v]).map((value): [string, string] => [name, value]),
  );

const compared = <T>(a: T, b: T) => ({ a, b, changed: a !== b });

/** Two stored deliveries, b compared with a: request line, headers and body. */
export function compareLogs(a: StoredLogWithBody, b: StoredLogWithBody): LogComparison {
  const method = compared(a.method, b.method);
  const path = compared(a.path, b.path);
  // The query is kept as parsed; names are case-sensitive there, unlike header names.
  const query = diffNamedValues(queryPairs(a.query), queryPairs(b.query), { ignoreCase: false });
  const headers = diffNamedValues(a.rawHeaders, b.rawHeaders, { ignoreCase: true });
  const body = diffBodies({ id: a.id, bytes: a.body }, { id: b.id, bytes: b.body });
  return {
    a: side(a),
    b: side(b),
    identical: !method.changed && !path.changed && isEmptyDiff(query) && isEmptyDiff(headers) && !body.changed,
    request: { method, path, query },
    headers,
    body,
  };
}
