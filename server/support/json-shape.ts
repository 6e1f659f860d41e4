/**
 * How deep a JSON text nests and about how long its 2-space pretty-printed form
 * would be, from one pass over its characters (no parse, no recursion). A body is
 * sender-controlled and up to the body limit (10 MB): `[[[...]]]` 500,000 deep
 * parses fine (V8's JSON.parse is iterative) but JSON.stringify recurses and
 * overflows the stack, and a few hundred levels around millions of items
 * pretty-print to gigabytes of indentation (seconds of CPU, then "Invalid string
 * length"). Callers check this before walking or re-serialising a body.
 */
export interface JsonShape {
  /** The deepest bracket nesting seen; the scan stops once it passes `maxDepth`. */
  depth: number;
  /**
   * An estimate of JSON.stringify(JSON.parse(text), null, 2).length: every character
   * kept, plus a newline and indentation per item and bracket, and a space per colon.
   * An upper bound, except that a number in exponent form may print longer (`1e20`
   * is 21 digits), at most about 5 times. Partial when the scan stopped early.
   */
  prettyChars: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const isOpener = (c: number): boolean => c === 0x5b || c === 0x7b; // [ {
const isCloser = (c: number): boolean => c === 0x5d || c === 0x7d; // ] }

/**
 * Scans `text` as JSON tokens (strings are skipped, escapes included). It does not
 * validate: a text that is not JSON gets some shape, and JSON.parse decides later.
 */
export function jsonShape(text: string, maxDepth: number): JsonShape {
  let depth = 0;
  let deepest = 0;
  let pretty = text.length;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (isOpener(c)) {
      depth++;
      pretty += 1 + 2 * depth;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > maxDepth) break;
      }
    } else if (isCloser(c)) {
      depth = Math.max(0, depth - 1);
      pretty += 1 + 2 * depth;
    } else if (c === COMMA) {
      pretty += 1 + 2 * depth;
    } else if (c === COLON) {
      pretty += 1;
    }
  }
  return { depth: deepest, prettyChars: pretty };
}
