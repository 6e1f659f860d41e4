import { useEffect } from 'react';
import { signInCode } from '../../lib/sign-in-link.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { Inspector } from './inspector.tsx';
import { Notices } from './notices.tsx';
import { SignInScreen } from '../sign-in/sign-in-screen.tsx';
import { SwitchAccountDialog } from '../sign-in/switch-account-dialog.tsx';
import { useTheme } from '../shared/use-theme.ts';

export function App() {
  const { session } = useStores();
  const status = useSlice(session, (s) => s.status);
  useTheme();
  useEffect(() => {
    const signIn = (first: boolean): void => {
      const code = signInCode(window.location.hash);
      if (!code && !first) return;
      // The code leaves the address bar (and the history) at once, whether it is spent or declined.
      if (code) window.history.replaceState(null, '', window.location.pathname);
      void session.getState().start(code);
    };
    signIn(true);
    // A link pasted into this tab changes only the fragment: no reload, so listen for it.
    const onHash = (): void => signIn(false);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [session]);

  return (
    <>
      {status === 'checking' && <p className="checking">Connecting to the engine…</p>}
      {status === 'signed-out' && <SignInScreen />}
      {status === 'signed-in' && (
        <>
          <Inspector />
          <SwitchAccountDialog />
        </>
      )}
      <Notices />
    </>
  );
}
