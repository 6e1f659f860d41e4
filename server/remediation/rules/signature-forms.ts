/**
 * How a signature value is written: the bytes of an HMAC in some encoding,
 * possibly behind a label (`sha256=`, `v1=`). Used to rewrite a sender's
 * value into the other forms and ask the verifier whether one of them passes.
 */
export interface SignatureToken {
  /** `sha256=`, `v1=`, or '' */
  prefix: string;
  bytes: Buffer;
  /** How the sender wrote the bytes. */
  encoding: 'hex' | 'base64' | 'base64 of the hex text';
}

const TOKEN = /^([A-Za-z0-9_-]{1,20}=)?([A-Za-z0-9+/_-]+={0,2})$/;
/** Labels that name the digest rather than a field of the header. */
const DIGEST_LABEL = /^sha256=$/i;

export function parseToken(segment: string): SignatureToken | null {
  const m = TOKEN.exec(segment);
  if (!m) return null;
  const prefix = m[1] ?? '';
  const value = m[2]!;
  if (/^[0-9a-fA-F]{64}$/.test(value)) return { prefix, bytes: Buffer.from(value, 'hex'), encoding: 'hex' };
  const b64 = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (b64.length === 32 && /^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return { prefix, bytes: b64, encoding: 'base64' };
  const text = b64.toString('latin1');
  if (/^[0-9a-fA-F]{64}$/.test(text))
    return { prefix, bytes: Buffer.from(text, 'hex'), encoding: 'base64 of the hex text' };
  return null;
}

export interface Rewrite {
  value: string;
  encoding: 'hex' | 'base64';
  prefix: string;
}

/** The same bytes in the other common forms (hex or base64, with or without `sha256=`). */
export function rewrites(token: SignatureToken): Rewrite[] {
  const prefixes = new Set<string>([token.prefix]);
  if (token.prefix === '') prefixes.add('sha256=');
  if (DIGEST_LABEL.test(token.prefix)) prefixes.add('');
  const out: Rewrite[] = [];
  for (const prefix of prefixes) {
    for (const encoding of ['hex', 'base64'] as const) {
      if (prefix === token.prefix && encoding === token.encoding) continue;
      out.push({ value: prefix + token.bytes.toString(encoding), encoding, prefix });
    }
  }
  return out;
}

export const describeForm = (encoding: string, prefix: string): string =>
  prefix === '' ? `${encoding}, no prefix` : `${encoding}, prefixed ${prefix}`;
