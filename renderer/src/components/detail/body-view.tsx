import { useMemo, useState } from 'react';
import { allExpanded, darkStyles, defaultStyles, JsonView } from 'react-json-view-lite';
import 'react-json-view-lite/dist/index.css';
import type { LogDetail } from '../../api/client.ts';
import { downloadBytes } from '../../lib/download.ts';
import {
  bodyBytes,
  bodyViewsFor,
  formFields,
  hexLines,
  MAX_TREE_DEPTH,
  treeData,
  type BodyViewKind,
} from '../../lib/body-views.ts';
import { SenderText } from '../shared/sender-text.tsx';
import { useIsDark } from '../shared/use-theme.ts';

const LABELS: Record<BodyViewKind, string> = {
  json: 'JSON',
  form: 'Form',
  xml: 'XML',
  text: 'Pretty',
  raw: 'Raw',
  hex: 'Hex',
};

/** The library's layout, with value colours from our theme (its own fail contrast on our background). */
const treeStyles = (dark: boolean) => {
  const base = dark ? darkStyles : defaultStyles;
  return {
    ...base,
    label: `${base.label} jv-label`,
    punctuation: `${base.punctuation} jv-punctuation`,
    numberValue: 'jv-number',
    stringValue: 'jv-string',
    booleanValue: 'jv-boolean',
    nullValue: 'jv-null',
    undefinedValue: 'jv-null',
    otherValue: 'jv-null',
  };
};

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function download(detail: LogDetail): void {
  downloadBytes(bodyBytes(detail.body, detail.bodyEncoding), `${detail.id}.body`, 'application/octet-stream');
}

/** The body, visible at once in the most readable view that applies; the others a click away. */
export function BodyView({ detail }: { detail: LogDetail }) {
  const views = useMemo(
    () => bodyViewsFor(detail.contentType, detail.body, detail.bodyEncoding),
    [detail.contentType, detail.body, detail.bodyEncoding],
  );
  const [chosen, setChosen] = useState<BodyViewKind | null>(null);
  const view = chosen !== null && views.available.includes(chosen) ? chosen : views.initial;
  const dark = useIsDark();

  return (
    <section className="body" aria-label="Body">
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
      {detail.body === '' ? (
        <p className="empty">No body.</p>
      ) : view === 'json' ? (
        <div className="json-tree">
          <JsonView data={treeData(detail.body)} shouldExpandNode={allExpanded} style={treeStyles(dark)} />
        </div>
      ) : view === 'form' ? (
        <table className="kv">
          <tbody>
            {formFields(detail.body).map(([k, v], i) => (
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
      ) : view === 'hex' ? (
        <pre className="code">{hexLines(bodyBytes(detail.body, detail.bodyEncoding)).join('\n')}</pre>
      ) : (
        <pre className="code">
          <SenderText text={view === 'text' ? pretty(detail.body) : detail.body} />
        </pre>
      )}
    </section>
  );
}
