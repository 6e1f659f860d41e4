/**
 * XML indented for reading, by a scan of its markup: no DOM and no XML parser, so
 * nothing in a sender's body is ever resolved or run (no entities expanded, no
 * DTD or external reference fetched, no script). Each element starts a line,
 * indented by its depth; an element holding only text stays on one line; text is
 * trimmed; comments, CDATA, processing instructions and the doctype are kept as
 * written. Raw shows the exact bytes.
 */
export type PrettyXml = { ok: true; text: string } | { ok: false; reason: string };

type Token =
  | { kind: 'open'; name: string; raw: string }
  | { kind: 'close'; name: string; raw: string }
  | { kind: 'empty' | 'other'; raw: string }
  | { kind: 'text'; raw: string };

const INDENT = '  ';
const NAME_END = /[\s/>]/;

const tagName = (raw: string, from: number): string => {
  let i = from;
  while (i < raw.length && !NAME_END.test(raw[i]!)) i++;
  return raw.slice(from, i);
};

/** Where the tag opened at `from` ends (the index after its `>`), quotes honoured; -1 when it never does. */
function tagEnd(text: string, from: number): number {
  let quote = '';
  for (let i = from + 1; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return i + 1;
    }
  }
  return -1;
}

/** The doctype's end: its internal subset (`[...]`) may hold `>`. */
function doctypeEnd(text: string, from: number): number {
  let inSubset = false;
  let quote = '';
  for (let i = from + 2; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '[') {
      inSubset = true;
    } else if (c === ']') {
      inSubset = false;
    } else if (c === '>' && !inSubset) {
      return i + 1;
    }
  }
  return -1;
}

function delimited(text: string, from: number, close: string): number {
  const at = text.indexOf(close, from);
  return at === -1 ? -1 : at + close.length;
}

function tokenize(text: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '<') {
      const next = text.indexOf('<', i);
      const end = next === -1 ? text.length : next;
      tokens.push({ kind: 'text', raw: text.slice(i, end) });
      i = end;
      continue;
    }
    let end: number;
    if (text.startsWith('<!--', i)) end = delimited(text, i + 4, '-->');
    else if (text.startsWith('<![CDATA[', i)) end = delimited(text, i + 9, ']]>');
    else if (text.startsWith('<?', i)) end = delimited(text, i + 2, '?>');
    else if (text.startsWith('<!', i)) end = doctypeEnd(text, i);
    else end = tagEnd(text, i);
    if (end === -1) return `a "${text.slice(i, i + 20)}" that never ends`;
    const raw = text.slice(i, end);
    if (raw.startsWith('<![CDATA[')) tokens.push({ kind: 'text', raw });
    else if (raw.startsWith('<!') || raw.startsWith('<?')) tokens.push({ kind: 'other', raw });
    else if (raw.startsWith('</')) tokens.push({ kind: 'close', name: tagName(raw, 2), raw });
    else if (raw.endsWith('/>')) tokens.push({ kind: 'empty', raw });
    else tokens.push({ kind: 'open', name: tagName(raw, 1), raw });
    i = end;
  }
  return tokens;
}

/** `text` indented, or why not: markup that never ends, tags that do not match, or nesting deeper than `maxDepth`. */
export function prettyXml(text: string, maxDepth: number): PrettyXml {
  const tokens = tokenize(text);
  if (typeof tokens === 'string') return { ok: false, reason: tokens };
  const lines: string[] = [];
  const open: string[] = [];
  const line = (s: string): number => lines.push(INDENT.repeat(open.length) + s);
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    if (token.kind === 'text') {
      const trimmed = token.raw.trim();
      if (trimmed !== '') line(trimmed);
    } else if (token.kind === 'open') {
      if (open.length >= maxDepth) return { ok: false, reason: `it nests more than ${maxDepth} elements deep` };
      // <a>text</a> (or <a></a>) stays on one line.
      const inner = tokens[t + 1];
      const textInside = inner?.kind === 'text';
      const closing = tokens[t + (textInside ? 2 : 1)];
      if (closing?.kind === 'close' && closing.name === token.name) {
        line(token.raw + (textInside ? inner.raw.trim() : '') + closing.raw);
        t += textInside ? 2 : 1;
        continue;
      }
      line(token.raw);
      open.push(token.name);
    } else if (token.kind === 'close') {
      const expected = open.pop();
      if (expected !== token.name) {
        return {
          ok: false,
          reason: expected === undefined ? `${token.raw} closes nothing` : `${token.raw} closes <${expected}>`,
        };
      }
      line(token.raw);
    } else {
      line(token.raw);
    }
  }
  if (open.length > 0) return { ok: false, reason: `<${open[open.length - 1]!}> is never closed` };
  return { ok: true, text: lines.join('\n') };
}
