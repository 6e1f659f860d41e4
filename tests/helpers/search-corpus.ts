/**
 * Random-ish but reproducible texts for the search tests: paths, headers and bodies
 * with what makes LIKE tricky (case, `%`, `_`, `\`, non-ASCII, NUL, invalid UTF-8,
 * U+FFFD/U+FFFE/U+FFFF, bodies past one index row and past the indexed size), and
 * terms cut from them or made up, seeded so a failure replays.
 */
export type Rand = () => number;

/** mulberry32: a small seeded generator in [0, 1). */
export function seeded(seed: number): Rand {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (r: Rand, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[int(r, xs.length)]!;

const WORDS = [
  'invoice',
  'Invoice',
  'INVOICE',
  'payment_failed',
  'cus_4242',
  'charge',
  'Stripe',
  'héllo',
  'HÉLLO',
  'naïve',
  '日本語',
  '😀',
  'a%b',
  '100%',
  'snake_case',
  'back\\slash',
  'quote"d',
  'tab\tx',
  'µ',
  '©',
  'Ÿ',
  'ſ',
  'K',
  '\u00a9',
  '\ufffd',
  '\ufffe',
  '\uffff',
  'x',
  'ab',
  'Ab',
  '_',
  '%',
  '\\',
];

function words(r: Rand, n: number): string {
  return Array.from({ length: n }, () => pick(r, WORDS)).join(pick(r, [' ', '.', '', '-', '/', '","']));
}

/** Bytes SQLite reads oddly: NUL, stray continuation bytes, lead bytes, overlongs, surrogates, past U+10FFFF. */
const ODD_BYTES = [
  [0x00],
  [0x80],
  [0xa9],
  [0xbf],
  [0xc3],
  [0xc3, 0xa9, 0xa9],
  [0xe0, 0x83, 0xa9],
  [0xc1, 0x81],
  [0xed, 0xa0, 0x80],
  [0xef, 0xbf, 0xbe],
  [0xef, 0xbf, 0xbf],
  [0xef, 0xbf, 0xbd],
  [0xf4, 0x90, 0x80, 0x80],
  [0xfe],
  [0xff],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

/** Realistic JSON text of about `bytes` bytes, varied enough to need several index rows. */
function jsonText(r: Rand, bytes: number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    const p = `{"id":"evt_${int(r, 1e9).toString(36)}","type":"${words(r, 2)}","amount":${int(r, 1e6)},"note":"${words(r, 3)}"},`;
    parts.push(p);
    n += p.length;
  }
  return `[${parts.join('')}]`;
}

export function randomBody(r: Rand): Buffer {
  switch (int(r, 9)) {
    case 0:
      return Buffer.alloc(0);
    case 1: {
      // Binary: random bytes with the odd ones mixed in.
      const out: number[] = [];
      for (let i = int(r, 300); i > 0; i--) out.push(...(r() < 0.3 ? pick(r, ODD_BYTES) : [int(r, 256)]));
      return Buffer.from(out);
    }
    case 2: {
      // Text with odd bytes inside (a NUL cuts what LIKE sees).
      const out: number[] = [...Buffer.from(words(r, 5))];
      out.push(...pick(r, ODD_BYTES), ...Buffer.from(words(r, 5)));
      return Buffer.from(out);
    }
    case 3:
      // Several index rows.
      return Buffer.from(jsonText(r, 2_000 + int(r, 12_000)));
    case 4:
      // Past the indexed size: one full row.
      return Buffer.from(jsonText(r, 66 * 1024));
    default:
      return Buffer.from(`{"type":"${words(r, 2)}","data":"${words(r, 1 + int(r, 30))}"}`);
  }
}

export function randomPath(r: Rand): string {
  return `/hooks/${pick(r, ['', 'ep_x/', 'a%25b/', 'x_y/'])}${words(r, int(r, 3)).replace(/[ "\t]/g, '')}`;
}

export function randomHeaders(r: Rand): [string, string][] {
  const out: [string, string][] = [['content-type', pick(r, ['application/json', 'text/plain; charset=UTF-8'])]];
  for (let i = int(r, 4); i > 0; i--) out.push([pick(r, ['X-Trace', 'user-agent', 'x-note']), words(r, 1 + int(r, 3))]);
  return out;
}

/**
 * A term cut from a text (a body decoded as UTF-8, so it may hold U+FFFD), case flipped
 * at random. Cut between code points: a term never holds a lone surrogate (an HTTP query
 * cannot carry one).
 */
export function termFrom(r: Rand, text: string | Buffer, maxLength = 90): string {
  const chars = [...(typeof text === 'string' ? text : new TextDecoder().decode(text))];
  if (chars.length === 0) return pick(r, WORDS);
  const from = int(r, chars.length);
  const cut = chars.slice(from, from + 1 + int(r, Math.min(maxLength, chars.length - from)));
  return cut.map((c) => (r() < 0.3 ? (r() < 0.5 ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
}

/** Terms made up: short ones (no trigram), LIKE's special characters, NUL, the odd characters. */
export function madeUpTerm(r: Rand): string {
  return pick(r, [
    () => pick(r, WORDS),
    () => words(r, 2),
    () => pick(r, ['%', '_', '\\', '%_', '\\%', 'a%b', '"', '","', '\u0000', 'x\u0000', '\u0000x', '}\u0000']),
    () => pick(r, ['\u0080', '\u00a9', '\u00bf', '\u00e9', '\ufffd', '\ufffe', '\uffff', '\u3a40', '\u{10ffff}']),
    () => String.fromCharCode(32 + int(r, 95)),
  ])();
}
