import { useSlice, useStores } from '../../stores/app-stores.ts';

export function SignInScreen() {
  const { session } = useStores();
  const reason = useSlice(session, (s) => s.reason);
  return (
    <main className="sign-in">
      <h1>Hookscope</h1>
      <p role="alert">{reason}</p>
      <p>
        In a terminal on this machine, run <code>npx hookscope open</code>. It opens this page signed in, with a link
        that works once, for 10 minutes.
      </p>
      <p>
        In the desktop app, choose <strong>Sign in again</strong> in its tray menu (the menu bar on macOS).
      </p>
    </main>
  );
}
