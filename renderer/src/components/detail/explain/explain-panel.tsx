import { useEffect } from 'react';
import { useSlice, useStores } from '../../../stores/app-stores.ts';
import { CopyButton } from '../../shared/copy-button.tsx';
import { engineControl, useEngineStopped } from '../../shared/engine-gate.ts';

export function ExplainPanel({ logId }: { logId: string }) {
  const { analysis } = useStores();
  const busy = useSlice(analysis, (s) => s.busy);
  const stopped = useEngineStopped();
  const result = useSlice(analysis, (s) => (s.logId === logId ? s.analysis : null));
  const problem = useSlice(analysis, (s) => (s.logId === logId ? s.problem : null));
  useEffect(() => {
    if (analysis.getState().logId !== logId) void analysis.getState().explain(logId);
  }, [analysis, logId]);

  return (
    <section className="panel" aria-label="Explanation">
      <div className="panel-head">
        <h3>Why it failed</h3>
        <button
          type="button"
          className="secondary"
          {...engineControl(stopped, { disabled: busy })}
          onClick={() => void analysis.getState().explain(logId, true)}
        >
          {busy ? 'Analysing…' : 'Refresh'}
        </button>
      </div>
      {problem && <p className="hint">{problem}</p>}
      {result && (
        <>
          <p>{result.summary}</p>
          <ol className="causes">
            {result.causes.map((c) => (
              <li key={c.code} className="cause">
                <strong>{c.title}</strong>{' '}
                <span className="confidence">{Math.round(c.confidence * 100)}% confident</span>
                {c.evidence.length > 0 && (
                  <ul className="evidence">
                    {c.evidence.map((ev, i) => (
                      <li key={i}>{typeof ev === 'string' ? ev : `${ev.label}: ${ev.value}`}</li>
                    ))}
                  </ul>
                )}
                <ol className="steps">
                  {c.steps.map((step, i) => (
                    <li key={i}>{step}</li>
                  ))}
                </ol>
                <details>
                  <summary>Verification snippet (Node)</summary>
                  <pre className="code">{c.snippets.node}</pre>
                  <CopyButton text={c.snippets.node} label="Copy snippet" />
                </details>
              </li>
            ))}
          </ol>
          {result.explanation && <p className="hint">{result.explanation}</p>}
        </>
      )}
    </section>
  );
}
