import { isUtf8 } from 'node:buffer';
import { jsonShape } from '../../support/json-shape.ts';

/**
 * Beyond these the JSON variants are not computed (the body is opaque to them; the
 * line-ending variants still apply). Real payloads nest a few dozen levels at most;
 * JSON.stringify recurses once per level. The pretty form of a body within the
 * 10 MB limit stays within 64 MiB unless it is built to blow up.
 */
export const JSON_VARIANT_LIMITS = { depth: 1000, prettyChars: 64 * 1024 * 1024 };

/**
 * Normalised variants of a body: the bytes a sender may have signed when the
 * bytes that arrived differ only by serialisation or line endings. Each name
 * says what the signed bytes were, relative to what arrived.
 */
export type BodyVariantName =
  'compact_json' | 'pretty_json' | 'trailing_newline_added' | 'trailing_newline_removed' | 'crlf_to_lf' | 'lf_to_crlf';

export interface BodyVariant {
  name: BodyVariantName;
  description: string;
  bytes: Buffer;
}

export function bodyVariants(
  body: Buffer,
  limits: { depth: number; prettyChars: number } = JSON_VARIANT_LIMITS,
): BodyVariant[] {
  // Binary bodies have no text form to normalise (and decoding them would change the bytes).
  if (!isUtf8(body)) return [];
  const text = body.toString('utf8');
  const out: BodyVariant[] = [];
  const add = (name: BodyVariantName, description: string, variant: string): void => {
    const bytes = Buffer.from(variant, 'utf8');
    if (!bytes.equals(body) && !out.some((v) => v.bytes.equals(bytes))) out.push({ name, description, bytes });
  };
  const shape = jsonShape(text, limits.depth);
  let parsed: unknown;
  let isJson = false;
  if (shape.depth <= limits.depth) {
    try {
      parsed = JSON.parse(text);
      isJson = true;
    } catch {
      // not JSON: only the whitespace variants apply
    }
  }
  // The smallest change first: when two variants give the same bytes, the first name is kept.
  if (/\r?\n$/.test(text))
    add('trailing_newline_removed', 'the body without its trailing newline', text.replace(/\r?\n$/, ''));
  add('trailing_newline_added', 'the body with a trailing newline added', `${text}\n`);
  if (text.includes('\r\n'))
    add('crlf_to_lf', 'the body with CRLF line endings turned into LF', text.replace(/\r\n/g, '\n'));
  if (/(^|[^\r])\n/.test(text))
    add('lf_to_crlf', 'the body with LF line endings turned into CRLF', text.replace(/\r?\n/g, '\r\n'));
  if (isJson) {
    const compact = serialise(() => JSON.stringify(parsed));
    if (compact !== undefined)
      add('compact_json', 'the JSON re-serialised compactly (JSON.stringify(JSON.parse(body)))', compact);
    const pretty =
      shape.prettyChars <= limits.prettyChars ? serialise(() => JSON.stringify(parsed, null, 2)) : undefined;
    if (pretty !== undefined)
      add('pretty_json', 'the JSON pretty-printed with 2 spaces (JSON.stringify(value, null, 2))', pretty);
  }
  return out;
}

/**
 * The limits above should keep JSON.stringify within the stack and the string
 * size; a RangeError (call stack, string length) still only drops the variant.
 * `undefined` also covers a top-level value JSON.stringify has no text for.
 */
function serialise(stringify: () => string | undefined): string | undefined {
  try {
    return stringify();
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}
