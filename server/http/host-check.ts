const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * DNS-rebinding guard for the private API listener: a page on evil.example that
 * rebinds its name to 127.0.0.1 still sends `Host: evil.example`, so only
 * loopback names (with any port) are accepted, and a team server's public URL
 * (`--public-url`, the host its reverse proxy answers at, with that URL's port).
 */
export function apiHostCheck(publicUrl: string | null): (host: string | undefined) => boolean {
  const publicHosts = new Set<string>();
  if (publicUrl !== null) {
    const u = new URL(publicUrl);
    publicHosts.add(u.host);
    // A proxy may forward the default port explicitly.
    if (u.port === '') publicHosts.add(`${u.hostname}:${DEFAULT_PORTS[u.protocol]}`);
  }
  return (host) => {
    if (!host) return false;
    const h = host.toLowerCase();
    return isLoopbackHostHeader(h) || publicHosts.has(h);
  };
}

function isLoopbackHostHeader(h: string): boolean {
  const name = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.split(':')[0]!;
  if (!LOOPBACK_NAMES.has(name)) return false;
  const rest = h.slice(name.length);
  return rest === '' || /^:\d{1,5}$/.test(rest);
}
