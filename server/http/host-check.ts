const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * DNS-rebinding guard for the private API listener: a page on evil.example that
 * rebinds its name to 127.0.0.1 still sends `Host: evil.example`, so only
 * loopback names (with any port) are accepted.
 */
export function isAllowedApiHost(host: string | undefined): boolean {
  if (!host) return false;
  const h = host.toLowerCase();
  const name = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.split(':')[0]!;
  if (!LOOPBACK_NAMES.has(name)) return false;
  const rest = h.slice(name.length);
  return rest === '' || /^:\d{1,5}$/.test(rest);
}
