import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 keyed with the secret's UTF-8 bytes. */
export function hmacSha256(secret: string, ...parts: (Buffer | string)[]): Buffer {
  return hmacSha256Key(Buffer.from(secret, 'utf8'), ...parts);
}

/** HMAC-SHA256 keyed with raw key bytes (Standard Webhooks decodes its secret first). */
export function hmacSha256Key(key: Buffer, ...parts: (Buffer | string)[]): Buffer {
  const mac = createHmac('sha256', key);
  for (const p of parts) mac.update(p);
  return mac.digest();
}

/** Constant-time comparison that tolerates different lengths (they simply do not match). */
export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
