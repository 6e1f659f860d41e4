import type { LogDetail } from '../../api/client.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import type { Panel } from '../../stores/ui-store.ts';
import { engineControl, useEngineStopped } from '../shared/engine-gate.ts';
import { ExportMenu } from './export/export-menu.tsx';

/** The delivery's actions; each opens its panel below (the keyboard opens them too: r, e, s, x), Export its menu. */
export function DetailActions({ detail }: { detail: LogDetail }) {
  const { ui, notices, deliveries } = useStores();
  const panel = useSlice(ui, (s) => s.panel);
  const toggle = (p: Panel): void => ui.getState().setPanel(panel === p ? 'none' : p);
  // Every action here asks the engine (even Copy as cURL: the engine writes the command).
  const gate = engineControl(useEngineStopped());
  const copyCurl = async (): Promise<void> => {
    const curl = await deliveries.getState().exportText(detail.id, 'curl');
    if (curl === null) return;
    try {
      await navigator.clipboard.writeText(curl);
      notices.getState().info('Copied the delivery as a cURL command.');
    } catch (e) {
      notices.getState().error('Copy as cURL', e);
    }
  };
  return (
    <div className="actions" role="toolbar" aria-label="Delivery actions">
      <button type="button" {...gate} aria-expanded={panel === 'replay'} onClick={() => toggle('replay')}>
        Replay
      </button>
      <button
        type="button"
        className="secondary"
        {...gate}
        aria-expanded={panel === 'edit'}
        onClick={() => toggle('edit')}
      >
        Edit and replay
      </button>
      <button
        type="button"
        className="secondary"
        {...gate}
        aria-expanded={panel === 'share'}
        onClick={() => toggle('share')}
      >
        Share
      </button>
      {/* The engine says whether it has something to explain, and a log.updated event when that changes. */}
      {detail.explainable && (
        <button
          type="button"
          className="secondary"
          {...gate}
          aria-expanded={panel === 'explain'}
          onClick={() => toggle('explain')}
        >
          Explain
        </button>
      )}
      <button type="button" className="secondary" {...gate} onClick={() => void copyCurl()}>
        Copy as cURL
      </button>
      <ExportMenu logId={detail.id} />
      <button
        type="button"
        className="secondary"
        {...gate}
        onClick={() => void deliveries.getState().pin(detail.id, !detail.pinned)}
      >
        {detail.pinned ? 'Unpin' : 'Pin'}
      </button>
      <button
        type="button"
        className="secondary danger"
        {...gate}
        onClick={() => {
          if (window.confirm('Delete this delivery for good? Its share link, analysis and replay history go too.')) {
            void deliveries.getState().remove([detail.id]);
          }
        }}
      >
        Delete
      </button>
    </div>
  );
}
