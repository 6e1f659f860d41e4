import { useEffect, useRef } from 'react';
import { exactTime } from '../../../lib/relative-time.ts';
import type { ReplayExchange } from '../../../stores/replay-store.ts';
import { SenderText } from '../../shared/sender-text.tsx';
import { ReplayOutcome, ReplayResponse } from './replay-outcome.tsx';

const bytes = (n: number): string => `${n.toLocaleString('en-US')} ${n === 1 ? 'byte' : 'bytes'}`;

/** The body as sent: the first 64 KiB of an edited body the engine kept, said so with its whole size. */
function SentBody({ exchange: x }: { exchange: ReplayExchange }) {
  if (x.requestBodySize === 0) return <p className="hint">No body.</p>;
  return (
    <>
      <p className="hint">
        {x.requestBodyTruncated ? `First 64 KiB of ${bytes(x.requestBodySize)}` : bytes(x.requestBodySize)}
        {x.requestBodyEncoding === 'base64' && ', binary (shown as base64)'}
      </p>
      {/* The delivery's bytes, or the user's edit of them: a sender's text either way. */}
      {/* Focusable: a long body scrolls, and the keyboard must reach it. */}
      <pre className="code" tabIndex={0} role="region" aria-label="Body sent">
        <SenderText text={x.requestBody} />
      </pre>
    </>
  );
}

/**
 * One attempt of the history read back: the request as it went out (method, URL,
 * headers in the order and case sent, body) next to what the target answered.
 * Focused when it opens, so the keyboard and a screen reader land on it.
 */
export function ReplayExchangeView({ exchange: x, onClose }: { exchange: ReplayExchange; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [x.id]);
  return (
    <div className="replay-exchange" role="group" aria-label="Replay attempt" tabIndex={-1} ref={ref}>
      <div className="panel-head">
        <h4>
          {x.trigger === 'forward' ? 'Forward' : x.trigger === 'client' ? 'Replay from this computer' : 'Replay'} at{' '}
          {exactTime(x.createdAt)}
          {x.edited && (
            <>
              {' '}
              <span className="tag-edited">edited</span>
            </>
          )}
        </h4>
        <button type="button" className="secondary" onClick={onClose}>
          Close attempt
        </button>
      </div>
      <div className="exchange-sides">
        <section aria-label="Request sent">
          <h4>Request sent</h4>
          <p className="request-line">
            <span className="method">{x.method}</span> {x.targetUrl}
          </p>
          {x.requestHeaders.length === 0 ? (
            <p className="hint">Nothing went out: the body below is what would have been sent.</p>
          ) : (
            <table className="kv">
              <tbody>
                {x.requestHeaders.map(([n, v], i) => (
                  <tr key={i}>
                    <th scope="row">
                      <SenderText text={n} />
                    </th>
                    <td className="header-value">
                      <SenderText text={v} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <SentBody exchange={x} />
        </section>
        <section aria-label="Response">
          <h4>Response</h4>
          <ReplayOutcome attempt={x} />
          <ReplayResponse attempt={x} />
        </section>
      </div>
    </div>
  );
}
