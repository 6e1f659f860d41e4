import { BlockList, isIP } from 'node:net';

/**
 * The reverse proxies whose X-Forwarded-For the engine believes (`trustProxy`).
 * Written by hand on node:net's BlockList rather than with Express's proxy-addr,
 * which is only a transitive dependency here.
 */
export interface TrustedProxies {
  trusts(address: string): boolean;
}

export const TRUST_PROXY_RULE =
  'must be a comma-separated list of IP addresses or CIDR ranges, such as 127.0.0.1,10.0.0.0/8';

/**
 * Parses a `trustProxy` value (a comma-separated list of addresses and CIDR
 * ranges) into its entries; throws naming the first bad entry.
 */
export function parseTrustProxy(value: string): string[] {
  const entries = value.split(',').map((e) => e.trim());
  for (const entry of entries) {
    if (!isTrustEntry(entry)) throw new Error(`${TRUST_PROXY_RULE} (got "${entry}" in "${value}").`);
  }
  return entries;
}

function isTrustEntry(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Entries as parseTrustProxy gives them; none trusts nobody (the default). */
export function trustedProxies(entries: readonly string[]): TrustedProxies {
  // The default, and every delivery asks: BlockList.check builds a SocketAddress each
  // time (measured: 3% of the receiver thread's time at full ingest).
  if (entries.length === 0) return { trusts: () => false };
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return {
    // BlockList matches IPv4-mapped IPv6 addresses against IPv4 ranges and back.
    trusts: (address) => list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6'),
  };
}

export interface RequestAddressing {
  socket: { remoteAddress?: string | undefined };
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The address a request came from: the socket's, unless that is a trusted
 * proxy; then X-Forwarded-For is walked from the right (the entry the nearest
 * proxy added) past trusted addresses to the first untrusted one. Every entry
 * trusted: the leftmost. A malformed entry ends the walk at the last good
 * address, since nothing left of it can be believed. IPv4-mapped IPv6
 * addresses come back as IPv4. Null when the socket has no address (closed).
 */
export function clientAddress(req: RequestAddressing, trusted: TrustedProxies): string | null {
  const socket = req.socket.remoteAddress;
  if (!socket) return null;
  let client = unmapped(socket);
  if (!trusted.trusts(client)) return client;
  const header = req.headers['x-forwarded-for'];
  if (header === undefined) return client;
  // Node joins repeated X-Forwarded-For headers with ", "; an array only comes from other callers.
  const hops = (Array.isArray(header) ? header.join(',') : header).split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!.trim();
    if (isIP(hop) === 0) break;
    client = unmapped(hop);
    if (!trusted.trusts(client)) break;
  }
  return client;
}

const unmapped = (a: string): string => (a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a);
