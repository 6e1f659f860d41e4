import { useId, useState } from 'react';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { engineLabel } from '../../stores/desktop-store.ts';

/**
 * The desktop app's engine switch (absent in a browser): which engine the window
 * shows, a team server to show instead (its URL and the one-time sign-in link
 * its `hookscope open --print` printed), and the way back to this computer. The
 * desktop app checks both and says what is wrong; on success the window loads
 * the team server's own UI.
 */
export function TeamServerSection() {
  const { desktop } = useStores();
  const available = useSlice(desktop, (s) => s.available);
  const engine = useSlice(desktop, (s) => s.engine);
  const connecting = useSlice(desktop, (s) => s.connecting);
  const error = useSlice(desktop, (s) => s.error);
  const [url, setUrl] = useState('');
  const [link, setLink] = useState('');
  const id = useId();
  if (!available) return null;
  const errorId = `${id}-error`;
  return (
    <section className="settings-section team-server" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Team server</h3>
      <div className="team-server-shown">
        <p>
          Showing: <strong>{engine ? engineLabel(engine) : '…'}</strong>
        </p>
        {engine?.kind === 'team' && (
          <button type="button" className="secondary" onClick={() => void desktop.getState().useThisComputer()}>
            Use this computer
          </button>
        )}
      </div>
      <p className="hint">
        Show a team server (<code>hookscope serve --database …</code>) in this window instead of this computer. On the
        server, run <code>hookscope open --print --user &lt;your name&gt;</code> and paste the link it prints.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void desktop.getState().connect(url, link);
        }}
      >
        <div className="settings-fields">
          <div className={error ? 'setting-field invalid' : 'setting-field'}>
            <label htmlFor={`${id}-url`}>Team server URL</label>
            <input
              id={`${id}-url`}
              type="text"
              inputMode="url"
              spellCheck={false}
              autoComplete="off"
              placeholder="https://hooks.example.com"
              value={url}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(e) => setUrl(e.target.value)}
            />
          </div>
          <div className={error ? 'setting-field invalid' : 'setting-field'}>
            <label htmlFor={`${id}-link`}>Sign-in link</label>
            <input
              id={`${id}-link`}
              type="text"
              spellCheck={false}
              autoComplete="off"
              placeholder="https://hooks.example.com/#/sign-in/…"
              value={link}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(e) => setLink(e.target.value)}
            />
          </div>
        </div>
        {error && (
          <p id={errorId} className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" aria-label="Connect to team server" disabled={connecting}>
            {connecting ? 'Connecting…' : 'Connect'}
          </button>
        </div>
      </form>
    </section>
  );
}
