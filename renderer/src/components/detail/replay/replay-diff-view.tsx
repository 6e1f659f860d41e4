import type { ReplayDiff } from '../../../stores/replay-store.ts';
import { patchLines } from '../../../lib/patch-lines.ts';
import { exactTime } from '../../../lib/relative-time.ts';
import { DiffTable } from '../../shared/diff-table.tsx';

const statusText = (s: ReplayDiff['a']): string =>
  s.status === null ? (s.error?.code ?? 'no answer') : String(s.status);

/** Each line marked by its first character (+ added, - removed) as well as by colour. */
function Patch({ patch }: { patch: string }) {
  return (
    <pre className="code patch">
      {patchLines(patch).map((line, i) => (
        <span key={i} className={line.startsWith('+') ? 'patch-add' : line.startsWith('-') ? 'patch-del' : undefined}>
          {line}
        </span>
      ))}
    </pre>
  );
}

/** Two replay responses compared (B with A): status, headers added/removed/changed, and the body. */
export function ReplayDiffView({ diff, onClose }: { diff: ReplayDiff; onClose: () => void }) {
  const h = diff.headers;
  const rows = [
    ...h.added.map((x) => ({ kind: 'added', name: x.name, a: '', b: x.value })),
    ...h.removed.map((x) => ({ kind: 'removed', name: x.name, a: x.value, b: '' })),
    ...h.changed.map((x) => ({ kind: 'changed', name: x.name, a: x.a, b: x.b })),
  ];
  return (
    <section className="replay-diff" aria-label="Response differences">
      <div className="panel-head">
        <h3>{diff.identical ? 'The two responses are identical' : 'Response differences'}</h3>
        <button type="button" className="secondary" onClick={onClose}>
          Close comparison
        </button>
      </div>
      <p className="meta">
        A: {diff.a.method} {diff.a.targetUrl} at {exactTime(diff.a.createdAt)} · B: {diff.b.method} {diff.b.targetUrl}{' '}
        at {exactTime(diff.b.createdAt)}
      </p>
      <p className={diff.status.changed ? 'status-change changed' : 'status-change'}>
        Status: {statusText(diff.a)}
        {diff.status.changed ? ` → ${statusText(diff.b)}` : ' (same)'}
      </p>
      <section aria-label="Response headers difference">
        <h4>Headers</h4>
        {rows.length === 0 ? <p className="hint">No difference.</p> : <DiffTable first="Name" rows={rows} />}
      </section>
      <section aria-label="Response body difference">
        <h4>Body</h4>
        {!diff.body.changed ? (
          <p className="hint">Same bytes.</p>
        ) : diff.body.format === 'binary' ? (
          <p>
            Binary bodies differ: {diff.body.sizes.a} and {diff.body.sizes.b} bytes.
          </p>
        ) : (
          <Patch patch={diff.body.patch} />
        )}
        {(diff.a.truncated || diff.b.truncated) && (
          <p className="hint">A response body was cut at the stored limit: the diff covers what was kept.</p>
        )}
      </section>
    </section>
  );
}
