import { useState } from 'react';
import { exactTime } from '../../../lib/relative-time.ts';
import { useSlice, useStores } from '../../../stores/app-stores.ts';
import type { HistoryEntry } from '../../../stores/replay-store.ts';
import { attemptFailed } from './replay-outcome.tsx';

const outcome = (h: HistoryEntry): string => String(h.status ?? h.error?.code ?? 'no answer');

/**
 * The delivery's attempts, newest first: each with its outcome, an "edited" tag
 * when the request was changed before sending, and a button that reads back the
 * request as sent beside its response. Two ticked attempts compare their responses.
 */
export function ReplayHistory({ logId, history }: { logId: string; history: HistoryEntry[] }) {
  const { replay } = useStores();
  const open = useSlice(replay, (s) => (s.logId === logId ? (s.exchange?.id ?? null) : null));
  // Replays ticked to compare, in the order ticked; at most two.
  const [picked, setPicked] = useState<string[]>([]);
  return (
    <>
      <div className="panel-head">
        <h3>History</h3>
        {history.length > 1 && (
          <button
            type="button"
            className="secondary"
            disabled={picked.length !== 2}
            title={picked.length === 2 ? undefined : 'Tick two replays'}
            onClick={() => {
              // The older of the two is A: the diff reads as "what changed since".
              const [a, b] = [...picked].sort(
                (x, y) => history.findIndex((h) => h.id === y) - history.findIndex((h) => h.id === x),
              );
              void replay.getState().compare(logId, a!, b!);
            }}
          >
            Compare responses
          </button>
        )}
      </div>
      <ul className="history" aria-label="Replay history">
        {history.map((h, i) => {
          const n = history.length - i;
          return (
            <li key={h.id}>
              {history.length > 1 && (
                <input
                  type="checkbox"
                  className="row-check"
                  checked={picked.includes(h.id)}
                  aria-label={`Compare replay ${n} (${outcome(h)}, ${exactTime(h.createdAt)})`}
                  onChange={(e) =>
                    setPicked((p) =>
                      e.target.checked
                        ? [...p.filter((id) => id !== h.id), h.id].slice(-2)
                        : p.filter((id) => id !== h.id),
                    )
                  }
                />
              )}
              <span className={attemptFailed(h) ? 'status failed' : 'status ok'}>{outcome(h)}</span> {h.method}{' '}
              {h.targetUrl} · {h.responseTime} ms · {h.trigger === 'client' ? 'From this computer' : h.trigger} ·{' '}
              {exactTime(h.createdAt)}
              {h.edited && (
                <>
                  {' '}
                  <span className="tag-edited">edited</span>
                </>
              )}{' '}
              <button
                type="button"
                className="tiny secondary"
                aria-expanded={open === h.id}
                aria-label={`View replay ${n}: request and response`}
                onClick={() =>
                  open === h.id ? replay.getState().closeExchange() : void replay.getState().showExchange(logId, h.id)
                }
              >
                View
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}
