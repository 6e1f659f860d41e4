import { verdict, verdictTone } from '../../../lib/format.ts';
import { exactTime } from '../../../lib/relative-time.ts';
import type { ComparedDelivery, Comparison } from '../../../stores/compare-store.ts';
import { useSlice, useStores } from '../../../stores/app-stores.ts';
import { DiffTable } from '../../shared/diff-table.tsx';
import { SenderText } from '../../shared/sender-text.tsx';

function NamedValues({ title, diff }: { title: string; diff: Comparison['headers'] }) {
  const rows = [
    ...diff.added.map((h) => ({ kind: 'added', name: h.name, a: '', b: h.values.join(', ') })),
    ...diff.removed.map((h) => ({ kind: 'removed', name: h.name, a: h.values.join(', '), b: '' })),
    ...diff.changed.map((h) => ({ kind: 'changed', name: h.name, a: h.a.join(', '), b: h.b.join(', ') })),
  ];
  return (
    <section aria-label={title}>
      <h3>{title}</h3>
      {rows.length === 0 ? <p className="hint">No difference.</p> : <DiffTable first="Name" rows={rows} />}
    </section>
  );
}

/**
 * Which delivery a side is, in the words the list uses: its endpoint's name, when
 * it arrived, and its verification (the engine's comparison does not carry that:
 * the row it was ticked in does); then its request line and id.
 */
function SideName({ label, side, row }: { label: string; side: Comparison['a']; row: ComparedDelivery | undefined }) {
  const { endpoints } = useStores();
  const name = useSlice(endpoints, (s) => s.endpoints.find((e) => e.id === side.endpointId)?.name);
  const v = row?.verification;
  return (
    <li>
      <strong>{label}</strong> · {name ?? `endpoint ${side.endpointId}`} ·{' '}
      <time dateTime={side.receivedAt}>{exactTime(side.receivedAt)}</time>
      {v && (
        <>
          {' · '}
          <span className={`status ${verdictTone(v)}`}>{verdict(v)}</span>
        </>
      )}
      <span className="compare-side-request">
        {side.method} <SenderText text={side.path} /> ({side.id})
      </span>
    </li>
  );
}

/** Two deliveries side by side: request line, query, headers, and the body (JSON paths, or lines). */
export function CompareView({ comparison }: { comparison: Comparison }) {
  const { compare } = useStores();
  const sides = useSlice(compare, (s) => s.sides);
  const c = comparison;
  return (
    <section className="pane detail-pane" aria-label="Comparison">
      <div className="pane-head">
        <h2>{c.identical ? 'The two deliveries are identical' : 'Comparison'}</h2>
        <button type="button" className="secondary" onClick={() => compare.getState().close()}>
          Close
        </button>
      </div>
      <ul className="compare-sides" aria-label="Compared deliveries">
        <SideName label="A" side={c.a} row={sides?.a.id === c.a.id ? sides.a : undefined} />
        <SideName label="B" side={c.b} row={sides?.b.id === c.b.id ? sides.b : undefined} />
      </ul>
      {(c.request.method.changed || c.request.path.changed) && (
        <p>
          Request line: {c.request.method.a} {c.request.path.a} → {c.request.method.b} {c.request.path.b}
        </p>
      )}
      <NamedValues title="Query" diff={c.request.query} />
      <NamedValues title="Headers" diff={c.headers} />
      <section aria-label="Body difference">
        <h3>Body</h3>
        {!c.body.changed ? (
          <p className="hint">Same bytes.</p>
        ) : c.body.format === 'json' ? (
          <DiffTable
            first="Path"
            rows={c.body.json.map((j) => ({ kind: j.kind, name: j.path, a: j.a ?? '', b: j.b ?? '' }))}
          />
        ) : c.body.format === 'text' ? (
          <pre className="code">{c.body.patch}</pre>
        ) : (
          <p>
            Binary bodies differ: {c.body.sizes.a} and {c.body.sizes.b} bytes (SHA-256 {c.body.sha256.a.slice(0, 12)}…
            and {c.body.sha256.b.slice(0, 12)}…).
          </p>
        )}
        {c.body.limited && <p className="hint">Partial diff: {c.body.limited.replace(/_/g, ' ')}.</p>}
      </section>
    </section>
  );
}
