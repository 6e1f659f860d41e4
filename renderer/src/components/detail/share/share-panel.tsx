import { useEffect, useState, type FormEvent } from 'react';
import { exactTime } from '../../../lib/relative-time.ts';
import { useSlice, useStores } from '../../../stores/app-stores.ts';
import { CopyButton } from '../../shared/copy-button.tsx';
import { engineControl, useEngineStopped } from '../../shared/engine-gate.ts';
import { sendOnEnter, usePanelFocus } from '../use-panel-focus.ts';

export function SharePanel({ logId }: { logId: string }) {
  const { share } = useStores();
  const busy = useSlice(share, (s) => s.busy);
  const stopped = useEngineStopped();
  const link = useSlice(share, (s) => (s.logId === logId ? s.share : null));
  const [hours, setHours] = useState('24');
  const [redact, setRedact] = useState(true);
  const [redactPath, setRedactPath] = useState(false);
  // s puts the cursor in the first field: the link's lifetime, then Enter creates it.
  const hoursField = usePanelFocus<HTMLInputElement>();
  useEffect(() => share.getState().open(logId), [share, logId]);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    void share.getState().create(logId, Number(hours), redact, redactPath);
  };

  return (
    <section className="panel" aria-label="Share">
      <h3>Share</h3>
      <form onSubmit={submit} onKeyDown={sendOnEnter} className="panel-form">
        <div className="panel-row">
          <label className="inline">
            Expires in (hours)
            <input
              ref={hoursField}
              type="number"
              min="1"
              max="720"
              step="1"
              value={hours}
              onChange={(e) => setHours(e.target.value)}
            />
          </label>
          <label className="inline">
            <input type="checkbox" checked={redact} onChange={(e) => setRedact(e.target.checked)} />
            Redact
          </label>
          <label className="inline">
            <input type="checkbox" checked={redactPath} onChange={(e) => setRedactPath(e.target.checked)} />
            Hide path
          </label>
          <button type="submit" {...engineControl(stopped, { disabled: busy })}>
            Create link
          </button>
        </div>
        <p className="hint">
          Redact hides secrets in headers and query parameters (Authorization, cookies, signatures, API keys) from
          whoever opens the link. Hide path hides every path segment after the first, for senders that put a secret in
          the URL (Slack-style /services/T…/B…/secret). A new link replaces the previous one.
        </p>
      </form>
      {link && (
        <div className="share-result" aria-label="Share link">
          <code className="share-url">{link.url}</code>
          <div className="panel-row">
            <CopyButton text={link.url} label="Copy link" />
            <button
              type="button"
              className="secondary"
              {...engineControl(stopped, { disabled: busy })}
              onClick={() => void share.getState().revoke(logId)}
            >
              Revoke
            </button>
          </div>
          <p className="hint">
            Expires {exactTime(link.expiresAt)}
            {link.redacted ? ', redacted' : ', not redacted'}
            {link.pathRedacted && ', path redacted'}.
            {link.localOnly && ' No tunnel is online: the link works on this machine only.'}
          </p>
          {link.browserNotice && <p className="notice-inline">{link.browserNotice}</p>}
        </div>
      )}
    </section>
  );
}
