import { createHash } from 'node:crypto';

/**
 * What the engine keeps instead of a sign-in code or a session id: their SHA-256.
 * Both carry 256 random bits, so no salt or slow hash is needed, and neither the
 * store nor its journal ever holds a working one.
 */
export const secretHash = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');
