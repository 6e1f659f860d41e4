import { exactTime } from '../../../lib/relative-time.ts';
import type { ReplayResult } from '../../../stores/replay-store.ts';

/** An attempt failed when the target answered 400 or more, or did not answer at all. */
export const attemptFailed = (a: Pick<ReplayResult, 'status'>): boolean => a.status === null || a.status >= 400;

/**
 * What an attempt came to: the status and how long it took, or, when the target
 * did not answer (refused, timed out, no such host), the engine's sentence saying why.
 */
export function ReplayOutcome({ attempt }: { attempt: ReplayResult }) {
  return (
    <div className={attemptFailed(attempt) ? 'verdict failed' : 'verdict ok'}>
      {attempt.status !== null ? (
        <>
          <strong>{attempt.status}</strong> in {attempt.responseTime} ms
        </>
      ) : (
        <>
          <strong>No answer</strong> ({attempt.error?.code ?? 'no response'}) after {attempt.responseTime} ms
          {attempt.error && <p className="replay-error">{attempt.error.message}</p>}
        </>
      )}
    </div>
  );
}

/** Where and when an attempt went: the request line and the time it was sent. */
export function ReplaySentLine({ attempt }: { attempt: ReplayResult }) {
  return (
    <p className="meta replay-sent">
      {attempt.method} {attempt.targetUrl} · <time dateTime={attempt.createdAt}>{exactTime(attempt.createdAt)}</time>
      {attempt.edited && (
        <>
          {' '}
          <span className="tag-edited">edited</span>
        </>
      )}
    </p>
  );
}

/** The target's answer: its headers as received, in order, and the body kept (the first 64 KiB). */
export function ReplayResponse({ attempt }: { attempt: ReplayResult }) {
  if (attempt.status === null) return null;
  return (
    <>
      <table className="kv">
        <tbody>
          {attempt.responseRawHeaders.map(([n, v], i) => (
            <tr key={i}>
              <th scope="row">{n}</th>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {/* Focusable: a long body scrolls, and the keyboard must reach it. */}
      <pre className="code" tabIndex={0} role="region" aria-label="Response body">
        {attempt.bodyEncoding === 'utf8' ? attempt.responseBody : `(binary, base64) ${attempt.responseBody}`}
      </pre>
      {attempt.truncated && <p className="hint">The first 64 KiB of the response body were kept.</p>}
    </>
  );
}
