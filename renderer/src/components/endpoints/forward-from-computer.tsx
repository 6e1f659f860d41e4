import { useEffect, useState, type FormEvent } from 'react';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import type { ForwardFromComputer as Forward } from '../../stores/forward-from-computer-store.ts';
import { EndpointTextField } from './endpoint-text-field.tsx';

const STATE_LABEL: Record<Forward['state'], string> = {
  'catching-up': 'Catching up on what arrived while off',
  live: 'Forwarding live',
  retrying: 'Retrying: the target did not take the last delivery',
  stopped: 'Stopped',
};

const HINT =
  'Sent by this app in arrival order, catching up on what arrived while it was off. Each delivery’s sub-path ' +
  'and query are added below this URL (a replay goes to the URL as typed).';

/**
 * "Forward from this computer", only in the desktop app showing a team server: the app's main process sends
 * this endpoint's deliveries to a URL on this computer (a dev server the team server cannot reach).
 */
export function ForwardFromComputer({ endpointId }: { endpointId: string }) {
  const { desktop } = useStores();
  const available = useSlice(desktop, (s) => s.available);
  const engine = useSlice(desktop, (s) => s.engine);
  if (!available || engine?.kind !== 'team') return null;
  return <ForwardGroup endpointId={endpointId} />;
}

function ForwardGroup({ endpointId }: { endpointId: string }) {
  const { forwardFromComputer: store } = useStores();
  const forward = useSlice(store, (s) => s.forwards[endpointId] ?? null);
  const refusal = useSlice(store, (s) => s.refusals[endpointId] ?? null);
  const busy = useSlice(store, (s) => s.busy === endpointId);
  const [target, setTarget] = useState('');
  // Read while the group is on screen: the main process forwards whatever the window shows, and says nothing by itself.
  useEffect(() => store.getState().watch(), [store]);
  const kept = forward?.targetUrl;
  // The target chosen before (this run, or kept by the app), once read.
  useEffect(() => {
    if (kept !== undefined) setTarget((typed) => (typed === '' ? kept : typed));
  }, [kept]);
  const on = forward !== null && forward.state !== 'stopped';

  const start = (e: FormEvent): void => {
    e.preventDefault();
    void store.getState().start(endpointId, target);
  };

  return (
    <section className="forward-from-computer" aria-label="Forward from this computer">
      <h3>Forward from this computer</h3>
      <form className="panel-form" onSubmit={start} noValidate>
        <EndpointTextField
          label="Forward from this computer to"
          type="url"
          value={target}
          onChange={setTarget}
          error={refusal}
          placeholder="http://localhost:3000/webhooks"
          hint={HINT}
        />
        <div className="panel-row">
          {on ? (
            <button
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() => void store.getState().stop(endpointId)}
            >
              Stop forwarding from this computer
            </button>
          ) : (
            <button type="submit" disabled={busy}>
              Start forwarding from this computer
            </button>
          )}
        </div>
      </form>
      <p className="forward-status" role="status">
        {forward && (
          <>
            <span className={`forward-state ${forward.state}`}>{STATE_LABEL[forward.state]}</span>
            {forward.lastLine !== null && <code className="forward-line">{forward.lastLine}</code>}
          </>
        )}
      </p>
    </section>
  );
}
