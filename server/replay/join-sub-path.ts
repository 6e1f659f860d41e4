import { ValidationError } from '../errors/app-errors.ts';
import { UNSAFE_SUB_PATH } from './replay-types.ts';

/**
 * Why a sub-path may not be joined to a base URL:
 * - `dot_segment`: `.` or `..` (also `..;x`, which Tomcat-style servers read as `..`),
 *   plain or percent-encoded at any level (`%2e`, `.%2E`, `%252e%252e`), alone or
 *   formed around an encoded slash (`..%2f`).
 * - `backslash`: `\` or `%5C` at any level; WHATWG URLs and many servers read it as `/`.
 * - `control_character`: a literal control character or space (URL parsers strip or
 *   rewrite them), or an encoded control character such as `%00` that C-based
 *   servers cut the path at.
 * - `overlong_encoding`: `%C0`/`%C1`, never valid in UTF-8; old decoders read
 *   `%C0%AE` as `.` and `%C0%AF` as `/`.
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
  dot_segment: 'it contains a dot segment ("." or ".."), plain or percent-encoded, that would lead out of it',
  backslash: 'it contains a backslash (plain or %5C), which URL parsers and many servers read as "/"',
  control_character:
    'it contains a control character or a space, which URL parsers strip and servers may cut the path at',
  overlong_encoding: 'it contains an overlong UTF-8 encoding (%C0 or %C1), which old servers decode as "." or "/"',
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

function segmentProblem(segment: string): UnsafeSubPathReason | null {
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  if (/[\u0000-\u0020\u007f]/.test(segment)) return 'control_character';
  let level = segment;
  for (let depth = 0; depth <= MAX_DECODE_LEVELS; depth++) {
    if (level.includes('\\')) return 'backslash';
    // Level 0 cannot hold a `/`; a decoded `%2F` can, and then it separates segments.
    if (level.split('/').some(isDotPiece)) return 'dot_segment';
    if (/%(?:[01][0-9a-f]|7f)/i.test(level)) return 'control_character';
    if (/%c[01]/i.test(level)) return 'overlong_encoding';
    const next = decodeOnce(level);
    if (next === level) return null;
    level = next;
  }
  return 'nested_encoding';
}

/**
 * Only dots (`.`, `..`, and `...`: Windows trims trailing dots and spaces), before
 * any `;params` (`..;x` is `..` to Tomcat-style servers).
 */
const isDotPiece = (piece: string): boolean => /^\.+\s*$/.test(piece.split(';')[0]!);

/** One round of percent-decoding, byte by byte (a byte becomes the code point of the same value). */
function decodeOnce(s: string): string {
  return s.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
