import { useEffect } from 'react';
import { tunnelLine } from '../../lib/tunnel-reach.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { useEngineStopped } from '../shared/engine-gate.ts';
import { useNow } from '../shared/use-now.ts';

/** The status shown is the last the engine sent: while it is stopped, nothing answers any URL, whatever that said. */
const STOPPED_LINE = { tone: 'bad', text: 'Engine stopped: no sender reaches the public or the local URLs' } as const;

/** The engine probes the public URL every 30 s (docs/API.md "Tunnel"); the line asks for the result at that pace. */
const REREAD_MS = 30_000;

/**
 * The tunnel's state as what it means for senders, in one line under the top bar:
 * the countdown to the next attempt while it is down, the age of the last round trip
 * while it works, and the engine's reason (the whole sentence in its tooltip).
 */
export function TunnelLine() {
  const { tunnel } = useStores();
  const status = useSlice(tunnel, (s) => s.status);
  const now = useNow(1000);
  const stopped = useEngineStopped();
  const online = status?.state === 'online' && !stopped;
  // checkedAt changes with every probe but is not pushed: while online, read it again.
  useEffect(() => {
    if (!online) return;
    const t = setInterval(() => void tunnel.getState().refresh(), REREAD_MS);
    return () => clearInterval(t);
  }, [online, tunnel]);
  if (!status) return null;
  const line = stopped ? STOPPED_LINE : tunnelLine(status, now);
  return (
    <p className={`tunnel-line tunnel-line-${line.tone}`}>
      <span className="tunnel-meaning">{line.text}</span>
      {status.lastError && !online && !stopped && (
        <span className="tunnel-reason" title={status.lastError}>
          {status.lastError}
        </span>
      )}
    </p>
  );
}
