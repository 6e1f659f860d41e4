import { useEffect, useState } from 'react';
import { reachWarning } from '../../lib/tunnel-reach.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { CopyButton } from '../shared/copy-button.tsx';
import { engineControl, useEngineStopped } from '../shared/engine-gate.ts';
import { EndpointSettings } from './endpoint-settings.tsx';
import { ForwardFromComputer } from './forward-from-computer.tsx';
import { NewEndpointDialog } from './new-endpoint-dialog.tsx';

export function EndpointsPane() {
  const { endpoints, deliveries, tunnel } = useStores();
  const list = useSlice(endpoints, (s) => s.endpoints);
  const tunnelStatus = useSlice(tunnel, (s) => s.status);
  const loaded = useSlice(endpoints, (s) => s.loaded);
  // The chosen endpoint is the deliveries' endpoint filter: one value, never two that could disagree.
  const selectedId = useSlice(deliveries, (s) => s.filter.endpointId);
  const [creating, setCreating] = useState(false);
  const stopped = useEngineStopped();
  const selected = list.find((e) => e.id === selectedId) ?? null;
  const warning = selected && reachWarning(selected, tunnelStatus);

  const choose = (id: string | null): void => void deliveries.getState().setFilter({ endpointId: id });
  // An endpoint deleted elsewhere (the CLI, another window) stops filtering the list.
  useEffect(() => {
    if (loaded && selectedId !== null && !list.some((e) => e.id === selectedId)) choose(null);
  });

  return (
    <nav className="pane endpoints-pane" aria-label="Endpoints">
      <div className="pane-head">
        <h2>Endpoints</h2>
        <button type="button" {...engineControl(stopped)} onClick={() => setCreating(true)}>
          New endpoint
        </button>
      </div>
      <NewEndpointDialog
        open={creating}
        onDone={(created) => {
          setCreating(false);
          if (created) choose(created.id);
        }}
      />
      {loaded && list.length === 0 && !creating && (
        <p className="empty">No endpoint yet. Create one to get a URL that records every webhook sent to it.</p>
      )}
      <ul className="endpoint-list">
        {list.length > 0 && (
          <li>
            <button
              type="button"
              className={selectedId === null ? 'item selected' : 'item'}
              onClick={() => choose(null)}
            >
              All endpoints
            </button>
          </li>
        )}
        {list.map((e) => (
          <li key={e.id}>
            <button
              type="button"
              className={e.id === selectedId ? 'item selected' : 'item'}
              aria-current={e.id === selectedId ? 'true' : undefined}
              onClick={() => choose(e.id)}
            >
              <span className="endpoint-name">{e.name}</span>
              <span className="endpoint-meta">
                {e.validationType}
                {e.isActive ? '' : ' · inactive'}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {selected && (
        <section className="endpoint-url" aria-label="Receiving URL">
          <h3>Receiving URL</h3>
          {/* Still the endpoint's URL, but nothing answers it while the engine is stopped. */}
          <code className={stopped ? 'not-receiving' : undefined}>{selected.url}</code>
          {stopped && <p className="not-receiving-mark">not receiving: the engine is stopped</p>}
          {/* Stopped, nothing reaches it from anywhere: the tunnel's part of that is moot. */}
          {warning && !stopped && <p className="reach-warning">{warning}</p>}
          <div className="panel-row">
            <CopyButton text={selected.url} label="Copy URL" />
            <button
              type="button"
              className="secondary"
              {...engineControl(stopped)}
              onClick={() => void endpoints.getState().sendTest(selected.id)}
            >
              Send test delivery
            </button>
          </div>
          <EndpointSettings key={selected.id} endpoint={selected} />
          <ForwardFromComputer key={`forward-${selected.id}`} endpointId={selected.id} />
          <h3>Try it</h3>
          <code className="curl">{`curl -X POST ${selected.url} -H 'content-type: application/json' -d '{"hello":"world"}'`}</code>
        </section>
      )}
    </nav>
  );
}
