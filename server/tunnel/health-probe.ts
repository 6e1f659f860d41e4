import { httpGet } from './http-get.ts';

export interface ProbeOptions {
  timeoutMs: number;
  /**
   * Connect to this origin instead of the public URL's own host, sending the
   * public URL's Host header. For self-hosted tunnel servers whose handed-out
   * URLs do not resolve from this machine (the tests' `http://<sub>.localhost`
   * from a server on another port); null = the public URL itself.
   */
  probeOrigin: string | null;
  signal?: AbortSignal;
}

/**
 * Proves the public URL works end to end: `GET <url>/healthz` travels to the
 * tunnel server, through one of the tunnel's sockets, to the receiver
 * listener's health check. `Bypass-Tunnel-Reminder` skips the public
 * service's browser warning page. Resolves when our receiver answered; throws a
 * sentence otherwise (the server's own 404 for a forgotten client, a 502/504, a
 * timeout, a refused connection).
 */
export async function probePublicUrl(url: string, o: ProbeOptions): Promise<void> {
  let res;
  try {
    res = await httpGet(`${url}/healthz`, {
      timeoutMs: o.timeoutMs,
      signal: o.signal,
      connectTo: o.probeOrigin,
      headers: { 'bypass-tunnel-reminder': '1', accept: 'application/json', 'user-agent': 'hookscope-tunnel-probe' },
    });
  } catch (e) {
    throw new Error(`The public URL ${url} did not answer: ${e instanceof Error ? e.message : String(e)}.`, {
      cause: e,
    });
  }
  if (res.status === 200 && isOurHealth(res.body)) return;
  throw new Error(`The public URL ${url} answered HTTP ${res.status} instead of this engine's health check.`);
}

function isOurHealth(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { success?: unknown; data?: { status?: unknown } };
    return parsed.success === true && parsed.data?.status === 'ok';
  } catch {
    return false;
  }
}
