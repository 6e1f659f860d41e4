import type { Logger } from '../support/logger.ts';
import type { TunnelService } from './tunnel-service.ts';

/**
 * One info line per tunnel state change. A retry while offline (connecting,
 * then offline again with the same reason) is not a change worth a line: with
 * backoff up to 30 s it would be two lines a minute for as long as the network
 * is down. Returns the unsubscribe.
 */
export function logTunnelStates(tunnel: Pick<TunnelService, 'subscribe'>, logger: Logger): () => void {
  let last: { state: string; lastError: string | null } | null = null;
  return tunnel.subscribe((t) => {
    const down = last?.state === 'offline' || last?.state === 'error';
    if (down && t.state === 'connecting') return;
    if (last && last.state === t.state && last.lastError === t.lastError) return;
    last = { state: t.state, lastError: t.lastError };
    logger.info(
      { state: t.state, url: t.url, host: t.host, attempts: t.attempts, lastError: t.lastError },
      'tunnel state',
    );
  });
}
