import { useEffect, useState, type FormEvent } from 'react';
import type { LogDetail } from '../../../api/client.ts';
import { exactTime } from '../../../lib/relative-time.ts';
import { replayTarget, targetBase } from '../../../lib/replay-target.ts';
import { useSlice, useStores } from '../../../stores/app-stores.ts';
import type { ReplayRequest } from '../../../stores/replay-store.ts';
import { ReplayDiffView } from './replay-diff-view.tsx';

const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'GET'] as const;

/** Headers as the editor shows them: one `Name: value` per line, in received order. */
const headerText = (d: LogDetail): string => d.rawHeaders.map(([n, v]) => `${n}: ${v}`).join('\n');

/** Only what the user changed goes to the engine: replacing every header would drop the re-signing's own. */
function editedHeaders(original: LogDetail, text: string): Record<string, string | null> {
  const before = new Map(original.rawHeaders.map(([n, v]) => [n.toLowerCase(), v]));
  const after = new Map<string, [string, string]>();
  for (const line of text.split('\n')) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    after.set(line.slice(0, i).trim().toLowerCase(), [line.slice(0, i).trim(), line.slice(i + 1).trim()]);
  }
  const out: Record<string, string | null> = {};
  for (const [key, [name, value]] of after) if (before.get(key) !== value) out[name] = value;
  for (const key of before.keys()) if (!after.has(key)) out[key] = null;
  return out;
}

export function ReplayPanel({ detail, edit }: { detail: LogDetail; edit: boolean }) {
  const { replay } = useStores();
  const sending = useSlice(replay, (s) => s.sending);
  const result = useSlice(replay, (s) => (s.logId === detail.id ? s.result : null));
  const history = useSlice(replay, (s) => (s.logId === detail.id ? s.history : []));
  const diff = useSlice(replay, (s) => (s.logId === detail.id ? s.diff : null));
  // Replays ticked to compare, in the order ticked; at most two.
  const [picked, setPicked] = useState<string[]>([]);
  const [target, setTarget] = useState(() =>
    replayTarget(replay.getState().targetBase(detail.endpointId), detail.path),
  );
  const [resign, setResign] = useState(detail.verification.scheme !== 'none');
  const [method, setMethod] = useState(detail.method);
  const [headers, setHeaders] = useState(() => headerText(detail));
  const [body, setBody] = useState(detail.bodyEncoding === 'utf8' ? detail.body : '');

  useEffect(() => {
    void replay.getState().open(detail.id);
  }, [replay, detail.id]);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const request: ReplayRequest = { targetUrl: target, resign, ...(method !== detail.method ? { method } : {}) };
    if (edit) {
      const changed = editedHeaders(detail, headers);
      if (Object.keys(changed).length > 0) request.headers = changed;
      if (detail.bodyEncoding === 'utf8' && body !== detail.body) request.body = body;
    }
    void replay.getState().send(detail.id, detail.endpointId, targetBase(target, detail.path), request);
  };

  return (
    <section className="panel" aria-label={edit ? 'Edit and replay' : 'Replay'}>
      <h3>{edit ? 'Edit and replay' : 'Replay'}</h3>
      <form onSubmit={submit} className="panel-form">
        <label>
          Target URL
          <input value={target} type="url" required onChange={(e) => setTarget(e.target.value)} />
        </label>
        <div className="panel-row">
          <label className="inline">
            <input type="checkbox" checked={resign} onChange={(e) => setResign(e.target.checked)} />
            Re-sign
          </label>
          <label className="inline">
            Method
            <select value={method} onChange={(e) => setMethod(e.target.value)}>
              {[detail.method, ...METHODS.filter((m) => m !== detail.method)].map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={sending}>
            {sending ? 'Sending…' : 'Send'}
          </button>
        </div>
        {edit && (
          <>
            <label>
              Headers
              <textarea rows={6} value={headers} onChange={(e) => setHeaders(e.target.value)} spellCheck={false} />
            </label>
            {detail.bodyEncoding === 'utf8' ? (
              <label>
                Request body
                <textarea rows={8} value={body} onChange={(e) => setBody(e.target.value)} spellCheck={false} />
              </label>
            ) : (
              <p className="hint">The body is binary: it is sent as stored.</p>
            )}
          </>
        )}
      </form>
      {result && (
        <div className="replay-result" aria-label="Replay result">
          <p className={result.status !== null && result.status < 400 ? 'verdict ok' : 'verdict failed'}>
            <strong>{result.status ?? result.error?.code ?? 'No answer'}</strong> in {result.responseTime} ms from{' '}
            {result.targetUrl}
          </p>
          <table className="kv">
            <tbody>
              {result.responseRawHeaders.map(([n, v], i) => (
                <tr key={i}>
                  <th scope="row">{n}</th>
                  <td>{v}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <pre className="code">
            {result.bodyEncoding === 'utf8' ? result.responseBody : `(binary, base64) ${result.responseBody}`}
          </pre>
        </div>
      )}
      {history.length > 0 && (
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
                  void replay.getState().compare(detail.id, a!, b!);
                }}
              >
                Compare responses
              </button>
            )}
          </div>
          <ul className="history" aria-label="Replay history">
            {history.map((h, i) => (
              <li key={h.id}>
                {history.length > 1 && (
                  <input
                    type="checkbox"
                    className="row-check"
                    checked={picked.includes(h.id)}
                    aria-label={`Compare replay ${history.length - i} (${h.status ?? h.error?.code ?? 'no answer'}, ${exactTime(h.createdAt)})`}
                    onChange={(e) =>
                      setPicked((p) =>
                        e.target.checked
                          ? [...p.filter((id) => id !== h.id), h.id].slice(-2)
                          : p.filter((id) => id !== h.id),
                      )
                    }
                  />
                )}
                <span className={h.status !== null && h.status < 400 ? 'status ok' : 'status failed'}>
                  {h.status ?? h.error?.code ?? 'no answer'}
                </span>{' '}
                {h.method} {h.targetUrl} · {h.responseTime} ms · {h.trigger} · {exactTime(h.createdAt)}
              </li>
            ))}
          </ul>
        </>
      )}
      {diff && <ReplayDiffView diff={diff} onClose={() => replay.getState().closeDiff()} />}
    </section>
  );
}
