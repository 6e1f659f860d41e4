import type { LogDetail } from '../logs/logs-schemas.ts';
import { diffBodies } from './body-diff.ts';
import type { LogComparison } from './compare-schemas.ts';
import { diffNamedValues, isEmptyDiff } from './named-values-diff.ts';

function side(l: LogDetail): LogComparison['a'] {
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

const queryPairs = (q: LogDetail['query']): [string, string][] =>
  Object.entries(q).flatMap(([name, v]) =>
    (Array.isArray(v) ? v : [v]).map((value): [string, string] => [name, value]),
  );

const compared = <T>(a: T, b: T) => ({ a, b, changed: a !== b });

/** Two stored deliveries, b compared with a: request line, headers and body. */
export function compareLogs(a: LogDetail, b: LogDetail): LogComparison {
  const method = compared(a.method, b.method);
  const path = compared(a.path, b.path);
  // The query is kept as parsed; names are case-sensitive there, unlike header names.
  const query = diffNamedValues(queryPairs(a.query), queryPairs(b.query), { ignoreCase: false });
  const headers = diffNamedValues(a.rawHeaders, b.rawHeaders, { ignoreCase: true });
  const body = diffBodies(
    { id: a.id, bytes: Buffer.from(a.body, a.bodyEncoding) },
    { id: b.id, bytes: Buffer.from(b.body, b.bodyEncoding) },
  );
  return {
    a: side(a),
    b: side(b),
    identical: !method.changed && !path.changed && isEmptyDiff(query) && isEmptyDiff(headers) && !body.changed,
    request: { method, path, query },
    headers,
    body,
  };
}
