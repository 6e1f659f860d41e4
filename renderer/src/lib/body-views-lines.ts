/**
 * A long text as fixed-width rows, for drawing only the rows on screen: each line
 * of the text is cut every `cols` characters, which in a monospace font is where
 * `word-break: break-all` would wrap it. A 2 MB body on one line is then some
 * 20,000 rows of a hundred characters, not one text node the browser lays out at
 * once. Built in one pass over the text; rows are found by arithmetic and a binary
 * search, never by copying the text.
 */
export interface WrappedText {
  cols: number;
  /** Where each line starts, and ends (before its newline). */
  lineStarts: Uint32Array;
  lineEnds: Uint32Array;
  /** The first row of each line. */
  firstRows: Uint32Array;
  rows: number;
}

export function wrapText(text: string, cols: number): WrappedText {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  const lineStarts = new Uint32Array(lines);
  const lineEnds = new Uint32Array(lines);
  const firstRows = new Uint32Array(lines);
  let start = 0;
  let rows = 0;
  for (let l = 0; l < lines; l++) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    lineStarts[l] = start;
    lineEnds[l] = end;
    firstRows[l] = rows;
    rows += Math.max(1, Math.ceil((end - start) / cols));
    start = end + 1;
  }
  return { cols, lineStarts, lineEnds, firstRows, rows };
}

/** The last index in `sorted` whose value is at most `x`. */
function lastAtMost(sorted: Uint32Array, x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (sorted[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const isLowSurrogate = (text: string, i: number): boolean => {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
};

/**
 * The characters of row `row`: [start, end). A cut that would split a surrogate
 * pair (an emoji) moves one character later, the same way on both sides of it.
 */
export function rowSpan(text: string, w: WrappedText, row: number): [number, number] {
  const line = lastAtMost(w.firstRows, row);
  const lineStart = w.lineStarts[line]!;
  const lineEnd = w.lineEnds[line]!;
  const cut = (at: number): number => (at > lineStart && at < lineEnd && isLowSurrogate(text, at) ? at + 1 : at);
  const from = lineStart + (row - w.firstRows[line]!) * w.cols;
  return [cut(Math.min(from, lineEnd)), cut(Math.min(from + w.cols, lineEnd))];
}

/** The row holding the character at `offset`. */
export function rowOfOffset(w: WrappedText, offset: number): number {
  const line = lastAtMost(w.lineStarts, offset);
  const start = w.lineStarts[line]!;
  const end = w.lineEnds[line]!;
  const rowsInLine = Math.max(1, Math.ceil((end - start) / w.cols));
  return w.firstRows[line]! + Math.min(Math.floor((Math.min(offset, end) - start) / w.cols), rowsInLine - 1);
}
