import { useDeferredValue, useMemo, useState } from 'react';
import type { LogDetail } from '../../api/client.ts';
import { downloadBytes } from '../../lib/download.ts';
import { findInText, NO_MATCHES, stepMatch } from '../../lib/body-views-find.ts';
import { findInTree, type Json } from '../../lib/body-views-tree.ts';
import {
  bodyBytes,
  bodyViewsFor,
  formFields,
  LARGE_BODY_CHARS,
  MAX_FORM_FIELDS,
  MAX_TREE_DEPTH,
  prettyText,
  type BodyViewKind,
} from '../../lib/body-views.ts';
import { formatBytes } from '../../lib/format.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { ViewBoundary } from '../shared/view-boundary.tsx';
import { SenderText } from '../shared/sender-text.tsx';
import { BodyFind } from './body/body-find.tsx';
import { BodyHex } from './body/body-hex.tsx';
import { BodyText } from './body/body-text.tsx';
import { BodyTree } from './body/body-tree.tsx';

const LABELS: Record<BodyViewKind, string> = {
  json: 'JSON',
  form: 'Form',
  text: 'Pretty',
  raw: 'Raw',
  hex: 'Hex',
};

/** The views "Find in body" searches. */
const FINDABLE: ReadonlySet<BodyViewKind> = new Set(['json', 'text', 'raw']);

function download(detail: LogDetail): void {
  downloadBytes(bodyBytes(detail.body, detail.bodyEncoding), `${detail.id}.body`, 'application/octet-stream');
}

/**
 * The body, visible at once in the most readable view that applies (Raw for a
 * large one); the others a click away, and "Find in body" over them. A large body
 * that "Follow newest" opened stays folded until asked for, so a big delivery
 * arriving never stalls the page with no click at all.
 */
export function BodyView({ detail }: { detail: LogDetail }) {
  const { selection } = useStores();
  const byFollowing = useSlice(selection, (s) => s.openedByFollowing);
  const [unfolded, setUnfolded] = useState(false);
  const folded = byFollowing && !unfolded && detail.body.length > LARGE_BODY_CHARS;
  return (
    <section className="body" aria-label="Body">
      {folded ? (
        <>
          <div className="body-head">
            <h3>Body</h3>
          </div>
          <div className="body-folded">
            <p>{formatBytes(detail.size)}, opened by Follow newest: a body this large is shown when you ask for it.</p>
            <button type="button" onClick={() => setUnfolded(true)}>
              Show body
            </button>
          </div>
        </>
      ) : (
        <ViewBoundary what="The body">
          <OpenBody detail={detail} />
        </ViewBoundary>
      )}
    </section>
  );
}

function OpenBody({ detail }: { detail: LogDetail }) {
  const views = useMemo(
    () => bodyViewsFor(detail.contentType, detail.body, detail.bodyEncoding),
    [detail.contentType, detail.body, detail.bodyEncoding],
  );
  const [chosen, setChosen] = useState<BodyViewKind | null>(null);
  const view = chosen !== null && views.available.includes(chosen) ? chosen : views.initial;
  const [query, setQuery] = useState('');
  // Typing stays responsive on a large body: the search runs on the value React has caught up with.
  const found = useDeferredValue(query);

  return (
    <>
      <div className="body-head">
        <h3>Body</h3>
        <div role="radiogroup" aria-label="Body view" className="chips">
          {views.available.map((k) => (
            <label key={k} className={k === view ? 'chip selected' : 'chip'}>
              <input type="radio" name="body-view" checked={k === view} onChange={() => setChosen(k)} />
              {LABELS[k]}
            </label>
          ))}
        </div>
        <button type="button" className="secondary" onClick={() => download(detail)}>
          Download
        </button>
      </div>
      {detail.truncated && <p className="hint">Stored truncated: the body was larger than the size limit.</p>}
      {views.tooDeep && (
        <p className="hint">
          This JSON is nested more than {MAX_TREE_DEPTH} levels deep, more than the tree shows: here is its raw text.
        </p>
      )}
      {views.large && views.initial === 'raw' && view === 'raw' && views.available[0] !== 'raw' && (
        <p className="hint">
          A large body ({formatBytes(detail.size)}): opened as Raw, which is quick to draw and to search.{' '}
          {LABELS[views.available[0]!]} is one click away.
        </p>
      )}
      {detail.body === '' ? (
        <p className="empty">No body.</p>
      ) : (
        <ShownBody key={view} detail={detail} view={view} query={query} found={found} onQuery={setQuery} />
      )}
    </>
  );
}

interface ShownProps {
  detail: LogDetail;
  view: BodyViewKind;
  /** What the find box holds, and what has been searched for (the same, once React catches up). */
  query: string;
  found: string;
  onQuery: (query: string) => void;
}

/** One view of the body, with the find box when the view is searchable. Keyed by the view: the current match starts at the first. */
function ShownBody({ detail, view, query, found, onQuery }: ShownProps) {
  const [current, setCurrent] = useState(0);
  const [searched, setSearched] = useState(found);
  if (searched !== found) {
    // A new search starts at its first match.
    setSearched(found);
    setCurrent(0);
  }
  const tree = useMemo(() => (view === 'json' ? (JSON.parse(detail.body) as Json) : null), [view, detail.body]);
  const pretty = useMemo(
    () => (view === 'text' ? prettyText(detail.contentType, detail.body) : null),
    [view, detail.contentType, detail.body],
  );
  const bytes = useMemo(
    () => (view === 'hex' ? bodyBytes(detail.body, detail.bodyEncoding) : null),
    [view, detail.body, detail.bodyEncoding],
  );
  const text = view === 'raw' ? detail.body : (pretty?.text ?? '');
  const textMatches = useMemo(
    () => (view === 'raw' || view === 'text' ? findInText(text, found) : NO_MATCHES),
    [view, text, found],
  );
  const treeMatches = useMemo(() => (tree === null ? null : findInTree(tree, found)), [tree, found]);
  const total = treeMatches ? treeMatches.matches.length : textMatches.starts.length;
  const capped = treeMatches ? treeMatches.capped : textMatches.capped;
  const at = Math.min(current, Math.max(0, total - 1));

  return (
    <>
      {FINDABLE.has(view) && (
        <BodyFind
          query={query}
          found={found}
          onQuery={onQuery}
          current={at}
          total={total}
          capped={capped}
          onStep={(by) => setCurrent(stepMatch(at, total, by))}
        />
      )}
      {pretty?.note !== undefined && <p className="hint">{pretty.note}</p>}
      {tree !== null ? (
        <BodyTree root={tree} query={found} matches={treeMatches?.matches ?? []} current={at} />
      ) : view === 'form' ? (
        <FormTable body={detail.body} />
      ) : bytes !== null ? (
        <BodyHex bytes={bytes} />
      ) : (
        <BodyText text={text} label={view === 'raw' ? 'Raw text' : 'Pretty text'} matches={textMatches} current={at} />
      )}
    </>
  );
}

function FormTable({ body }: { body: string }) {
  const fields = formFields(body);
  return (
    <>
      <table className="kv">
        <tbody>
          {fields.slice(0, MAX_FORM_FIELDS).map(([k, v], i) => (
            <tr key={i}>
              <th scope="row">
                <SenderText text={k} />
              </th>
              <td>
                <SenderText text={v} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {fields.length > MAX_FORM_FIELDS && (
        <p className="hint">
          The first {MAX_FORM_FIELDS.toLocaleString('en-US')} of {fields.length.toLocaleString('en-US')} fields: Raw
          shows them all.
        </p>
      )}
    </>
  );
}
