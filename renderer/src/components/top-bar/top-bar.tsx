import { useSlice, useStores } from '../../stores/app-stores.ts';
import type { TunnelStatus } from '../../api/client.ts';
import type { LiveState } from '../../stores/live-store.ts';
import { engineLabel } from '../../stores/desktop-store.ts';
import type { ThemeChoice } from '../../stores/theme-store.ts';
import { CopyButton } from '../shared/copy-button.tsx';
import { engineControl, useEngineStopped } from '../shared/engine-gate.ts';
import { MainNav } from './main-nav.tsx';
import { TunnelLine } from './tunnel-line.tsx';

const LIVE_WORDS: Record<LiveState, string> = {
  connecting: 'Connecting',
  live: 'Live',
  reconnecting: 'Reconnecting',
  stopped: 'Engine stopped',
  refused: 'Not live',
};

const TUNNEL_WORDS: Record<TunnelStatus['state'], string> = {
  disabled: 'Tunnel off',
  connecting: 'Tunnel connecting',
  online: 'Tunnel online',
  // Open, but the last request the engine sent itself through the public URL did not come back.
  degraded: 'Tunnel failing',
  offline: 'Tunnel offline',
  error: 'Tunnel error',
};

export function TopBar() {
  const { tunnel, live, theme, session, desktop } = useStores();
  const shown = useSlice(desktop, (s) => s.engine);
  const status = useSlice(tunnel, (s) => s.status);
  const owner = useSlice(session, (s) => s.owner);
  const account = useSlice(session, (s) => s.account);
  const liveState = useSlice(live, (s) => s.state);
  const liveMessage = useSlice(live, (s) => s.message);
  const choice = useSlice(theme, (s) => s.choice);
  const stopped = useEngineStopped();
  return (
    <header className="top-bar">
      <div className="top-row">
        <span className="brand">Hookscope</span>
        <MainNav />
        {status && (
          <span className="tunnel">
            <span className={`pill tunnel-${status.state}`} title={status.lastError ?? undefined}>
              {TUNNEL_WORDS[status.state]}
            </span>
            {status.url && (
              <>
                {/* Still the URL senders have, but nothing answers it while the engine is stopped. */}
                <code className={stopped ? 'public-url not-receiving' : 'public-url'}>{status.url}</code>
                {stopped && <span className="not-receiving-mark">not receiving</span>}
                <CopyButton text={status.url} label="Copy public URL" />
              </>
            )}
            {owner && (
              <label className="switch">
                <input
                  type="checkbox"
                  role="switch"
                  checked={status.enabled}
                  {...engineControl(stopped)}
                  onChange={(e) => void tunnel.getState().setEnabled(e.target.checked)}
                />
                Tunnel
              </label>
            )}
          </span>
        )}
        <span className="spacer" />
        <span className={`pill live-${liveState}`} title={liveMessage}>
          {LIVE_WORDS[liveState]}
        </span>
        <label className="theme">
          {/* Named for assistive technology; the select's value says what it is. */}
          <span className="visually-hidden">Theme</span>
          <select value={choice} onChange={(e) => theme.getState().choose(e.target.value as ThemeChoice)}>
            <option value="system">System</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        {account && (
          <span className="account">
            <span>
              Signed in as <strong>{account.name}</strong>
            </span>
            <button
              type="button"
              className="secondary"
              {...engineControl(stopped)}
              onClick={() => void session.getState().signOut()}
            >
              Sign out
            </button>
          </span>
        )}
      </div>
      {/* The first row is full at 1024 px: the engine shown and what the tunnel means for senders get their own. */}
      <div className="bar-line">
        {/* The desktop app only: which engine this window shows (Settings, "Team server", switches it). */}
        {shown && (
          <span className={`pill engine-shown engine-${shown.kind}`} title="The engine this window shows">
            <span className="visually-hidden">Showing: </span>
            {engineLabel(shown)}
          </span>
        )}
        <TunnelLine />
      </div>
    </header>
  );
}
