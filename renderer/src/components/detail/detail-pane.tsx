import type { LogDetail } from '../../api/client.ts';
import { formatBytes, queryText, verdict, verdictTone } from '../../lib/format.ts';
import { headerValueText } from '../../lib/header-lines.ts';
import { exactTime } from '../../lib/relative-time.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { AnswerCard } from './answer-card.tsx';
import { BodyView } from './body-view.tsx';
import { CopyButton } from '../shared/copy-button.tsx';
import { EventType } from '../shared/event-type.tsx';
import { DetailActions } from './detail-actions.tsx';
import { ExplainPanel } from './explain/explain-panel.tsx';
import { ReplayPanel } from './replay/replay-panel.tsx';
import { SenderText } from '../shared/sender-text.tsx';
import { SharePanel } from './share/share-panel.tsx';

function Verification({ detail }: { detail: LogDetail }) {
  const v = detail.verification;
  return (
    <div className={`verdict ${verdictTone(v)}`} role={v.result === 'invalid' ? 'alert' : undefined}>
      <strong>{verdict(v)}</strong>
      {/* The verifier's sentence can quote a header the sender chose. */}
      {v.detail && (
        <p>
          <SenderText text={v.detail} />
        </p>
      )}
      {v.matchedSecret === 'previous' && <p>Matched the previous secret (still in its grace period).</p>}
    </div>
  );
}

export function DetailPane() {
  const { selection, ui } = useStores();
  const panel = useSlice(ui, (s) => s.panel);
  const detail = useSlice(selection, (s) => s.detail);
  const selectedId = useSlice(selection, (s) => s.selectedId);
  if (selectedId === null) {
    return (
      <section className="pane detail-pane" aria-label="Delivery">
        <p className="empty">Select a delivery to see its request, verification and body.</p>
      </section>
    );
  }
  if (detail === null) {
    return (
      <section className="pane detail-pane" aria-label="Delivery">
        <p className="empty">Loading…</p>
      </section>
    );
  }
  return (
    <section className="pane detail-pane" aria-label="Delivery" tabIndex={-1}>
      <h2 className="request-line">
        <span className="method">{detail.method}</span> <SenderText text={`${detail.path}${queryText(detail.query)}`} />
      </h2>
      <p className="meta">
        {detail.eventType !== null && <EventType name={detail.eventType} />}
        {detail.eventType !== null && ' '}
        {exactTime(detail.receivedAt)} · {formatBytes(detail.size)} ·{' '}
        <SenderText text={detail.contentType ?? 'no content type'} /> · {detail.sourceIp ?? 'unknown source'}
      </p>
      <Verification detail={detail} />
      <DetailActions detail={detail} />
      {(panel === 'replay' || panel === 'edit') && (
        <ReplayPanel key={`${detail.id}-${panel}`} detail={detail} edit={panel === 'edit'} />
      )}
      {panel === 'share' && <SharePanel logId={detail.id} />}
      {panel === 'explain' && detail.explainable && <ExplainPanel logId={detail.id} />}
      <section aria-label="Headers">
        <h3>Headers</h3>
        <table className="kv">
          <tbody>
            {detail.rawHeaders.map(([name, value], i) => (
              <tr key={i}>
                <th scope="row">
                  <SenderText text={name} />
                </th>
                <td>
                  <span className="header-value">
                    <SenderText text={headerValueText(value)} />
                  </span>
                  {/* The exact value, controls included: copying is for reuse, not for reading (its UTF-8 text encodes back to the bytes received). */}
                  <CopyButton text={headerValueText(value)} label={`Copy ${name}`} short="Copy" className="tiny" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {Object.keys(detail.query).length > 0 && (
        <section aria-label="Query">
          <h3>Query</h3>
          <table className="kv">
            <tbody>
              {Object.entries(detail.query).flatMap(([k, v]) =>
                (Array.isArray(v) ? v : [v]).map((one, i) => (
                  <tr key={`${k}-${i}`}>
                    <th scope="row">
                      <SenderText text={k} />
                    </th>
                    <td>
                      <SenderText text={one} />
                    </td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </section>
      )}
      <BodyView key={detail.id} detail={detail} />
      <AnswerCard detail={detail} />
    </section>
  );
}
