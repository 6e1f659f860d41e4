import { useEffect, useId, useState, type FormEvent } from 'react';
import type { LogDetail } from '../../../api/client.ts';
import { useSlice, useStores } from '../../../stores/app-stores.ts';
import { replayRoute } from '../../../lib/replay-route.ts';
import { engineControl, useEngineStopped } from '../../shared/engine-gate.ts';
import type { HistoryEntry, ReplayRequest } from '../../../stores/replay-store.ts';
import { ReplayDiffView } from './replay-diff-view.tsx';
import { ReplayExchangeView } from './replay-exchange.tsx';
import { ReplayHistory } from './replay-history.tsx';
import { ReplayOutcome, ReplayResponse, ReplaySentLine } from './replay-outcome.tsx';
import { sendOnEnter, usePanelFocus } from '../use-panel-focus.ts';

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

/** One empty history for every render before the log's own is read (a selector must return a stable value). */
const NO_HISTORY: HistoryEntry[] = [];

export function ReplayPanel({ detail, edit }: { detail: LogDetail; edit: boolean }) {
  const { replay, desktop } = useStores();
  const shownEngine = useSlice(desktop, (s) => s.engine);
  const sending = useSlice(replay, (s) => s.sending);
  const stopped = useEngineStopped();
  const result = useSlice(replay, (s) => (s.logId === detail.id ? s.result : null));
  const history = useSlice(replay, (s) => (s.logId === detail.id ? s.history : NO_HISTORY));
  const exchange = useSlice(replay, (s) => (s.logId === detail.id ? s.exchange : null));
  const diff = useSlice(replay, (s) => (s.logId === detail.id ? s.diff : null));
  const [target, setTarget] = useState(() => replay.getState().targetFor(detail.endpointId, detail.path));
  const [resign, setResign] = useState(detail.verification.scheme !== 'none');
  const [method, setMethod] = useState(detail.method);
  const [headers, setHeaders] = useState(() => headerText(detail));
  const [body, setBody] = useState(detail.bodyEncoding === 'utf8' ? detail.body : '');
  // The target URL is the first field of both panels: r and e put the cursor there.
  const targetField = usePanelFocus<HTMLInputElement>();
  const fromHereId = useId();
  // Said only where it differs from the engine sending: the desktop app on a team server, a target here.
  const fromHere = replayRoute(shownEngine, target) === 'this-computer';

  // The history is read when the panel opens, not when a delivery is selected.
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
    void replay.getState().send(detail.id, detail.endpointId, detail.path, request);
  };

  return (
    <section className="panel" aria-label={edit ? 'Edit and replay' : 'Replay'}>
      <h3>{edit ? 'Edit and replay' : 'Replay'}</h3>
      <form onSubmit={submit} onKeyDown={sendOnEnter} className="panel-form">
        <label>
          Target URL
          <input
            ref={targetField}
            value={target}
            type="url"
            required
            aria-describedby={fromHere ? fromHereId : undefined}
            onChange={(e) => setTarget(e.target.value)}
          />
        </label>
        {fromHere && (
          <p id={fromHereId} className="hint">
            Sent from this computer: the team server cannot reach it.
          </p>
        )}
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
          <button type="submit" {...engineControl(stopped, { disabled: sending })}>
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
        <div className="replay-result" role="group" aria-label="Replay result">
          <ReplayOutcome attempt={result} />
          <ReplaySentLine attempt={result} />
          <ReplayResponse attempt={result} />
        </div>
      )}
      {history.length > 0 && <ReplayHistory logId={detail.id} history={history} />}
      {exchange && <ReplayExchangeView exchange={exchange} onClose={() => replay.getState().closeExchange()} />}
      {diff && <ReplayDiffView diff={diff} onClose={() => replay.getState().closeDiff()} />}
    </section>
  );
}
