/**
 * Unicode's bidirectional formatting characters: the embeddings and overrides
 * (U+202A-U+202E), the isolates (U+2066-U+2069) and the implicit marks (U+200E,
 * U+200F, U+061C). They are invisible and reorder how the text around them is
 * displayed ("Trojan Source", CVE-2021-42574), so a sender can make a path, a
 * header or an event name read as something it is not. Wherever a sender's text
 * is shown to a person, each one is shown as a visible marker (`⟨U+202E⟩`)
 * instead of being applied: the CLI escapes them like other controls
 * (server/cli/terminal-safe.ts), the renderer and desktop notifications use the
 * functions below. Stored bytes, copies and downloads keep the characters.
 *
 * Pure and free of Node APIs: the renderer and the Electron shell import it too.
 */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// The same set without the global flag, for a stateless test.
const ANY_BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const NAMES: Readonly<Record<string, string>> = {
  '\u061c': 'ARABIC LETTER MARK',
  '\u200e': 'LEFT-TO-RIGHT MARK',
  '\u200f': 'RIGHT-TO-LEFT MARK',
  '\u202a': 'LEFT-TO-RIGHT EMBEDDING',
  '\u202b': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202c': 'POP DIRECTIONAL FORMATTING',
  '\u202d': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202e': 'RIGHT-TO-LEFT OVERRIDE',
  '\u2066': 'LEFT-TO-RIGHT ISOLATE',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2068': 'FIRST STRONG ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
};

export const hasBidiControls = (s: string): boolean => ANY_BIDI_CONTROL.test(s);

/** One bidi control as a UI shows it: the marker in the text, the name in its tooltip. */
export interface BidiControl {
  /** `⟨U+202E⟩` */
  marker: string;
  /** `U+202E RIGHT-TO-LEFT OVERRIDE` */
  name: string;
}

const codePoint = (c: string): string => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

function describe(c: string): BidiControl {
  return { marker: `⟨${codePoint(c)}⟩`, name: `${codePoint(c)} ${NAMES[c]}` };
}

/** The text with each bidi control replaced by its marker: `a\u202Eb` -> `a⟨U+202E⟩b`. */
export function markBidiControls(s: string): string {
  return hasBidiControls(s) ? s.replace(BIDI_CONTROLS, (c) => describe(c).marker) : s;
}

/** The text as runs of plain text and the controls between them, for a UI that styles each marker. */
export function splitBidiControls(s: string): (string | BidiControl)[] {
  if (!hasBidiControls(s)) return [s];
  const parts: (string | BidiControl)[] = [];
  let from = 0;
  for (const m of s.matchAll(BIDI_CONTROLS)) {
    if (m.index > from) parts.push(s.slice(from, m.index));
    parts.push(describe(m[0]));
    from = m.index + 1;
  }
  if (from < s.length) parts.push(s.slice(from));
  return parts;
}
