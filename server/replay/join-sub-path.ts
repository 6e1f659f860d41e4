import { ValidationError } from '../errors/app-errors.ts';
import { UNSAFE_SUB_PATH } from './replay-types.ts';

/**
 * Why a sub-path may not be joined to a base URL:
 * - `dot_segment`: `.` or `..` (also `..;x`, which Tomcat-style servers read as `..`),
 *   plain, percent-encoded at any level (`%2e`, `.%2E`, `%252e%252e`), `%u`-escaped
 *   (`%u002e`, as IIS decodes it) or written with characters that Unicode
 *   normalisation (NFKC) turns into dots or slashes (`%EF%BC%8E` is U+FF0E, the
 *   fullwidth full stop; U+2025 is `..`), alone or formed around an encoded slash (`..%2f`).
 * - `backslash`: `\` (plain, `%5C`, `%u005c` or a look-alike such as U+FF3C) at any
 *   level; WHATWG URLs and many servers read it as `/`.
 * - `control_character`: a literal control character or space (URL parsers strip or
 *   rewrite them), or an encoded control character such as `%00` that C-based
 *   servers cut the path at.
 * - `overlong_encoding`: a byte sequence that is never valid UTF-8 because it spells
 *   a character in more bytes than needed (`%C0%AE`, `%E0%80%AE`, `%F0%80%80%AE`,
 *   the 5- and 6-byte forms from `%F8`/`%FC`); old decoders read them as `.` or `/`.
 *   `%C0` and `%C1` are refused alone, as before: they can start nothing but an overlong form.
 * - `nested_encoding`: still changing after MAX_DECODE_LEVELS decodings; no real
 *   sender encodes that deep, and checking every level would cost O(n²).
 * - `escapes_base`: the joined URL does not start with the base path (should be
 *   unreachable after the checks above; kept as the last line of defence).
 */
export type UnsafeSubPathReason =
  'dot_segment' | 'backslash' | 'control_character' | 'overlong_encoding' | 'nested_encoding' | 'escapes_base';

/** Decodings checked per segment: a target may decode once, a proxy in front of it once more. */
const MAX_DECODE_LEVELS = 4;
const SHOWN_CHARS = 200;

const WHY: Record<UnsafeSubPathReason, string> = {
  dot_segment:
    'it contains a dot segment ("." or ".."), plain, percent-encoded, %u-escaped or in look-alike characters that normalise (NFKC) to dots, that would lead out of it',
  backslash:
    'it contains a backslash (plain, %5C or a look-alike such as U+FF3C), which URL parsers and many servers read as "/"',
  control_character:
    'it contains a control character or a space, which URL parsers strip and servers may cut the path at',
  overlong_encoding:
    'it contains an overlong UTF-8 encoding (such as %C0%AE or %E0%80%AE), which old servers decode as "." or "/"',
  nested_encoding: `it is percent-encoded more than ${MAX_DECODE_LEVELS} levels deep`,
  escapes_base: 'the joined URL would not stay below it',
};

/** A sub-path that cannot be joined to a base URL without risking a request outside it. */
export class UnsafeSubPathError extends ValidationError {
  constructor(
    readonly subPath: string,
    readonly reason: UnsafeSubPathReason,
    readonly basePath: string,
    /** The offending segment as sent, when one is to blame. */
    readonly segment: string | null,
  ) {
    const shown = subPath.length > SHOWN_CHARS ? `${subPath.slice(0, SHOWN_CHARS)}…` : subPath;
    const where = segment !== null && segment !== subPath ? ` (segment "${segment.slice(0, SHOWN_CHARS)}")` : '';
    super(
      `The sub-path "${shown}"${where} cannot be appended below the path "${basePath}": ${WHY[reason]}.`,
      { subPath, reason, basePath, segment },
      UNSAFE_SUB_PATH,
    );
  }
}

/**
 * The base URL with `subPath` appended below its path (`http://h/base` +
 * `/orders/42` -> `http://h/base/orders/42`); the base's query is kept.
 * The sub-path is used as sent, never normalised: a sub-path that could move the
 * request anywhere but below the base path, for any parser that decodes it up to
 * MAX_DECODE_LEVELS times, throws UnsafeSubPathError instead. `%25` stays
 * literal (the target receives `%25`), but what it decodes to is checked too, so
 * `%252e%252e` is refused. An encoded slash alone (`a%2Fb`) is allowed: it is
 * data until something decodes it, and what it would form is checked.
 */
export function joinSubPath(base: string | URL, subPath: string): URL {
  const url = new URL(base);
  const prefix = url.pathname.replace(/\/$/, '');
  const basePath = prefix === '' ? '/' : prefix;
  if (subPath === '' || subPath === '/') return url;
  const problem = unsafeSegment(subPath);
  if (problem) throw new UnsafeSubPathError(subPath, problem.reason, basePath, problem.segment);
  url.pathname = `${prefix}${subPath.startsWith('/') ? '' : '/'}${subPath}`;
  // Defence in depth: whatever the URL parser made of it must still sit below the base path.
  const below = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : null;
  if (below === null || unsafeSegment(below)) throw new UnsafeSubPathError(subPath, 'escapes_base', basePath, null);
  return url;
}

/** The first segment of a path that is unsafe to append, with the reason; null when all are safe. */
export function unsafeSegment(path: string): { segment: string; reason: UnsafeSubPathReason } | null {
  for (const segment of path.split('/')) {
    const reason = segmentProblem(segment);
    if (reason) return { segment, reason };
  }
  return null;
}

/**
 * Each segment is followed through every way a server may decode it, up to
 * MAX_DECODE_LEVELS rounds: percent-decoding (`%XX` as bytes, `%uXXXX` as UTF-16,
 * the way IIS does) and NFKC normalisation of the UTF-8 text (Python's and Java's
 * normalising frameworks, some proxies). A level is a byte string (one char per
 * byte, Latin-1), so an overlong sequence put together across levels (`%e0%2580%ae`)
 * is seen in the bytes it becomes. Normalising is a branch, not a step of the
 * same chain: it turns invalid bytes into U+FFFD, which would hide what the raw
 * bytes form one level down. Branches are de-duplicated; ASCII paths have one.
 */
function segmentProblem(segment: string): UnsafeSubPathReason | null {
  let levels = [Buffer.from(segment, 'utf8').toString('latin1')];
  for (let depth = 0; depth <= MAX_DECODE_LEVELS; depth++) {
    const next = new Set<string>();
    for (const bytes of levels) {
      const text = Buffer.from(bytes, 'latin1').toString('utf8');
      const normalized = text.normalize('NFKC');
      const reason = levelProblem(bytes, text, depth) ?? (normalized === text ? null : textProblem(normalized));
      if (reason) return reason;
      for (const form of normalized === text ? [bytes] : [bytes, Buffer.from(normalized, 'utf8').toString('latin1')]) {
        const decoded = decodeOnce(form);
        if (decoded !== form) next.add(decoded);
      }
    }
    if (next.size === 0) return null;
    levels = [...next];
  }
  return 'nested_encoding';
}

// eslint-disable-next-line no-control-regex -- control characters are what these look for
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/;
// eslint-disable-next-line no-control-regex -- as above; a decoded `%20` is a space the target reads as data
const CONTROL = /[\u0000-\u001f\u007f]/;
/**
 * Byte sequences no valid UTF-8 holds that spell a character in too many bytes:
 * C0/C1 (2 bytes), E0 80-9F (3), F0 80-8F (4), F8-FD then a continuation byte (5 and 6).
 */
const OVERLONG = /[\xc0\xc1]|\xe0[\x80-\x9f]|\xf0[\x80-\x8f]|[\xf8-\xfd][\x80-\xbf]/;

/** `bytes`: the level as bytes; `text`: the same as UTF-8 (invalid bytes become U+FFFD). */
function levelProblem(bytes: string, text: string, depth: number): UnsafeSubPathReason | null {
  const problem = textProblem(text);
  if (problem) return problem;
  if ((depth === 0 ? CONTROL_OR_SPACE : CONTROL).test(bytes)) return 'control_character';
  if (OVERLONG.test(bytes)) return 'overlong_encoding';
  return null;
}

function textProblem(text: string): UnsafeSubPathReason | null {
  if (text.includes('\\')) return 'backslash';
  // Level 0 cannot hold a `/`; a decoded `%2F` (or NFKC's U+FF0F) can, and then it separates segments.
  if (text.split('/').some(isDotPiece)) return 'dot_segment';
  return null;
}

/**
 * Only dots (`.`, `..`, and `...`: Windows trims trailing dots and spaces), before
 * any `;params` (`..;x` is `..` to Tomcat-style servers).
 */
const isDotPiece = (piece: string): boolean => /^\.+\s*$/.test(piece.split(';')[0]!);

/**
 * One round of decoding on a byte string: `%XX` becomes that byte, and a run of
 * `%uXXXX` the UTF-8 bytes of those UTF-16 code units (a surrogate pair is one character).
 */
function decodeOnce(bytes: string): string {
  return bytes.replace(/((?:%u[0-9a-f]{4})+)|%([0-9a-f]{2})/gi, (_m, units: string | undefined, hex: string) => {
    if (units === undefined) return String.fromCharCode(Number.parseInt(hex, 16));
    const text = String.fromCharCode(
      ...units
        .split(/%u/i)
        .slice(1)
        .map((u) => Number.parseInt(u, 16)),
    );
    return Buffer.from(text, 'utf8').toString('latin1');
  });
}
