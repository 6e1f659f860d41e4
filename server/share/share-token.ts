import { createHash } from 'node:crypto';
import type { Random } from '../support/random.ts';

/** 256 random bits, base64url: 43 characters, safe in a URL path as is. */
export const newShareToken = (random: Random): string => random.bytes(32).toString('base64url');

export const isShareTokenShape = (s: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(s);

/** What the store keeps instead of the token (a token has 256 bits of entropy, so no salt or slow hash is needed). */
export const hashShareToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
