import { useEffect, useRef, useState } from 'react';
import { useSlice, useStores } from '../../stores/app-stores.ts';

/**
 * The question a sign-in link for another account asks when this browser is
 * signed in already: a link someone else sent must not quietly move the user
 * into their account, where what the user then sets up and receives would go.
 * Staying (also Escape) is the safe answer and has the focus.
 */
export function SwitchAccountDialog({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const { session } = useStores();
  const request = useSlice(session, (s) => s.switchRequest);
  const current = useSlice(session, (s) => s.account);
  const ref = useRef<HTMLDialogElement>(null);
  const [switching, setSwitching] = useState(false);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (request && !d.open) d.showModal();
    if (!request && d.open) d.close();
  }, [request]);

  const switchAccount = async (): Promise<void> => {
    setSwitching(true);
    // Every store holds the old account's data: a fresh page starts them all over for the new one.
    if (await session.getState().switchAccount()) reload();
    else setSwitching(false);
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby="switch-account-title"
      aria-describedby="switch-account-text"
      onCancel={(e) => {
        e.preventDefault();
        session.getState().stay();
      }}
    >
      {request && current && (
        <>
          <h2 id="switch-account-title">Switch accounts?</h2>
          <p id="switch-account-text">
            This sign-in link is for the account <strong>{request.account.name}</strong>. You are signed in as{' '}
            <strong>{current.name}</strong>.
          </p>
          <div className="actions">
            <button type="button" autoFocus onClick={() => session.getState().stay()}>
              Stay as {current.name}
            </button>
            <button type="button" className="secondary" disabled={switching} onClick={() => void switchAccount()}>
              Switch to {request.account.name}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
