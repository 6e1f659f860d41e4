import type { Random } from '../support/random.ts';

/** What the localtunnel servers accept for a requested name, narrowed to what we ask for. */
export const SUBDOMAIN_PATTERN = /^[a-z0-9]{4,63}$/;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A fresh random subdomain ("hs" + 14 characters, about 72 bits): asked for
 * explicitly rather than through the server's `/?new`, so the engine knows the
 * name it wants and can remember it across restarts.
 */
export function randomSubdomain(random: Random): string {
  const bytes = random.bytes(14);
  let s = 'hs';
  for (const b of bytes) s += ALPHABET[b % ALPHABET.length];
  return s;
}

/** `https://localtunnel.me/` -> `https://localtunnel.me`: one spelling per host, so the remembered subdomain is found again. */
export function normalizeHost(host: string): string {
  const u = new URL(host);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
}

/** The public localtunnel service shows browsers a warning page; self-hosted servers do not. */
export function isPublicLocaltunnel(host: string, url: string | null): boolean {
  const names = [new URL(host).hostname, url ? new URL(url).hostname : ''];
  return names.some(
    (n) => n === 'localtunnel.me' || n === 'loca.lt' || n.endsWith('.loca.lt') || n.endsWith('.localtunnel.me'),
  );
}
