import type { MenuItemConstructorOptions } from 'electron';
import type { TunnelView } from '../server/tunnel/tunnel-schemas.ts';

/** What the tray shows about the tunnel. */
export type TrayTunnel = Pick<TunnelView, 'state' | 'url' | 'lastError'>;

export interface TrayActions {
  copyPublicUrl(url: string): void;
  open(): void;
  /** Loads a fresh one-time sign-in link in the window: the way back in after signing out. */
  signIn(): void;
  setNotify(on: boolean): void;
  quit(): void;
}

/** The same words as the UI's top bar. */
const STATE_WORDS: Record<TunnelView['state'], string> = {
  disabled: 'Tunnel off',
  connecting: 'Tunnel connecting',
  online: 'Tunnel online',
  degraded: 'Tunnel failing',
  offline: 'Tunnel offline',
  error: 'Tunnel error',
};

/** One line on the tunnel: its state, and the public URL while online. */
export function tunnelLine(tunnel: TrayTunnel): string {
  const words = STATE_WORDS[tunnel.state];
  return (tunnel.state === 'online' || tunnel.state === 'degraded') && tunnel.url ? `${words}: ${tunnel.url}` : words;
}

/** The tray icon's tooltip (hover text). */
export function trayTooltip(tunnel: TrayTunnel): string {
  const why = ['degraded', 'offline', 'error'].includes(tunnel.state) ? tunnel.lastError : null;
  return why ? `Hookscope: ${tunnelLine(tunnel)} (${why})` : `Hookscope: ${tunnelLine(tunnel)}`;
}

/**
 * The tray (macOS: menu bar) menu, rebuilt on each tunnel change: the tunnel's
 * state, "Copy public URL" (only while there is one), "Open Hookscope", "Sign in
 * again" (the window has no terminal to run `hookscope open` from), the
 * notification setting and "Quit".
 */
export function trayMenuTemplate(
  tunnel: TrayTunnel,
  settings: { notifyOnFailedDelivery: boolean },
  actions: TrayActions,
): MenuItemConstructorOptions[] {
  const url = tunnel.state === 'online' || tunnel.state === 'degraded' ? tunnel.url : null;
  return [
    { label: tunnelLine(tunnel), enabled: false },
    {
      label: 'Copy public URL',
      enabled: url !== null,
      click: () => {
        if (url !== null) actions.copyPublicUrl(url);
      },
    },
    { type: 'separator' },
    { label: 'Open Hookscope', click: () => actions.open() },
    { label: 'Sign in again', click: () => actions.signIn() },
    {
      label: 'Notify on failed deliveries',
      type: 'checkbox',
      checked: settings.notifyOnFailedDelivery,
      click: () => actions.setNotify(!settings.notifyOnFailedDelivery),
    },
    { type: 'separator' },
    { label: 'Quit', click: () => actions.quit() },
  ];
}
