import { errors, jwtVerify, SignJWT } from 'jose';
import { UnauthorizedError } from '../errors/app-errors.ts';
import type { Clock } from '../support/clock.ts';
import { cryptoRandom, type Random } from '../support/random.ts';

export interface TokenClaims {
  accountId: string;
  accountName: string;
  expiresAt: number;
}

export interface TokenServiceOptions {
  key: Uint8Array;
  clock: Clock;
  random?: Random;
  issuer?: string;
  audience?: string;
}

// One algorithm, pinned: with HMAC keys any other HS* (or `none`) must never be accepted.
const ALGORITHM = 'HS256';

export class TokenService {
  private readonly issuer: string;
  private readonly audience: string;
  private readonly random: Random;

  constructor(private readonly opts: TokenServiceOptions) {
    this.issuer = opts.issuer ?? 'hookscope';
    this.audience = opts.audience ?? 'hookscope-api';
    this.random = opts.random ?? cryptoRandom;
  }

  async issue(accountId: string, accountName: string, ttlMs: number): Promise<string> {
    const nowS = Math.floor(this.opts.clock.now() / 1000);
    return new SignJWT({ name: accountName })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(accountId)
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setIssuedAt(nowS)
      .setExpirationTime(nowS + Math.max(1, Math.floor(ttlMs / 1000)))
      .setJti(this.random.bytes(12).toString('base64url'))
      .sign(this.opts.key);
  }

  async verify(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.opts.key, {
        algorithms: [ALGORITHM],
        issuer: this.issuer,
        audience: this.audience,
        requiredClaims: ['exp', 'sub', 'iat'],
        currentDate: new Date(this.opts.clock.now()),
      });
      const name = typeof payload.name === 'string' ? payload.name : payload.sub!;
      return { accountId: payload.sub!, accountName: name, expiresAt: payload.exp! * 1000 };
    } catch (e) {
      if (e instanceof errors.JWTExpired) {
        throw new UnauthorizedError('The token has expired; get a new one with `hookscope token`.', 'TOKEN_EXPIRED');
      }
      // jose's messages are precise but may quote claims; ours stay generic.
      throw new UnauthorizedError('The token is not valid for this Hookscope install.', 'INVALID_TOKEN');
    }
  }
}

export function parseBearer(header: string | undefined): string {
  if (header === undefined || header.trim() === '') {
    throw new UnauthorizedError('The Authorization: Bearer <token> header is required.', 'MISSING_TOKEN');
  }
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  if (!m) throw new UnauthorizedError('The Authorization header must be "Bearer <token>".', 'INVALID_TOKEN');
  return m[1]!;
}
