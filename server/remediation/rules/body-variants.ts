import { isUtf8 } from 'node:buffer';

/**
 * Normalised variants of a body: the bytes a sender may have signed when the
 * bytes that arrived differ only by serialisation or line endings. Each name
 * says what the signed bytes were, relative to what arrived.
 */
export type BodyVariantName =
  | 'compact_json'
  | 'pretty_json'
  | 'trailing_newline_added'
  | 'trailing_newline_removed'
  | 'crlf_to_lf'
  | 'lf_to_crlf';

export interface BodyVariant {
  name: BodyVariantName;
  description: string;
  bytes: Buffer;
}

export function bodyVariants(body: Buffer): BodyVariant[] {
  // Binary bodies have no text form to normalise (and decoding them would change the bytes).
  if (!isUtf8(body)) return [];
  const text = body.toString('utf8');
  const out: BodyVariant[] = [];
  const add = (name: BodyVariantName, description: string, variant: string): void => {
    const bytes = Buffer.from(variant, 'utf8');
    if (!bytes.equals(body) && !out.some((v) => v.bytes.equals(bytes))) out.push({ name, description, bytes });
  };
  let parsed: unknown;
  let isJson = false;
  try {
    parsed = JSON.parse(text);
    isJson = true;
  } catch {
    // not JSON: only the whitespace variants apply
  }
  // The smallest change first: when two variants give the same bytes, the first name is kept.
  if (/\r?\n$/.test(text)) add('trailing_newline_removed', 'the body without its trailing newline', text.replace(/\r?\n$/, ''));
  add('trailing_newline_added', 'the body with a trailing newline added', `${text}\n`);
  if (text.includes('\r\n')) add('crlf_to_lf', 'the body with CRLF line endings turned into LF', text.replace(/\r\n/g, '\n'));
  if (/(^|[^\r])\n/.test(text)) add('lf_to_crlf', 'the body with LF line endings turned into CRLF', text.replace(/\r?\n/g, '\r\n'));
  if (isJson) {
    add('compact_json', 'the JSON re-serialised compactly (JSON.stringify(JSON.parse(body)))', JSON.stringify(parsed));
    add('pretty_json', 'the JSON pretty-printed with 2 spaces (JSON.stringify(value, null, 2))', JSON.stringify(parsed, null, 2));
  }
  return out;
}
