import { BIDI_CONTROLS, TERMINAL_CONTROLS } from '../api-client/shared.ts';

/**
 * Text that came from a sender (bodies, header values, query values, a replay
 * target's answer) can carry bytes a terminal acts on: `ESC ] 0 ; title BEL`
 * retitles the window, CSI sequences recolour or move the cursor, a lone CR
 * lets a line overwrite what was printed before it, and the C1 controls
 * (U+0080-U+009F, e.g. U+009B, a one-character CSI) do the same on terminals
 * that honour them. These are the Unicode `Cc` characters; all of them except
 * newline and tab are shown in a visible form on a terminal instead. So are the
 * bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C,
 * see server/support/bidi-controls.ts): a terminal that applies them reorders
 * the line, so a path or a header value would read as something else.
 *
 * Backslashes are left alone: the escaped form is for reading, not for getting
 * the bytes back (a pipe, `--out` or `--body-only` give the exact bytes).
 */

/** What escapeControls rewrites: the terminal controls and the bidi controls. */
const SHOWN_ESCAPED = new RegExp(`${TERMINAL_CONTROLS.source}|${BIDI_CONTROLS.source}`, 'g');
const ANY_SHOWN_ESCAPED = new RegExp(SHOWN_ESCAPED.source);

// DEL, C1 and the bidi controls inside JSON strings (JSON.stringify escapes C0 itself).
const JSON_UNESCAPED_CONTROL = new RegExp(`[\\u007f-\\u009f]|${BIDI_CONTROLS.source}`, 'g');

const hex2 = (n: number): string => n.toString(16).padStart(2, '0');

function visible(c: string): string {
  const code = c.charCodeAt(0);
  if (c === '\r') return '\\r';
  // C0 and DEL as the byte they are; C1 and bidi controls as the code point (in UTF-8 they were two or three bytes).
  return code <= 0x7f ? `\\x${hex2(code)}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every control character except newline and tab, and every bidi control, in a visible form (`\x1b`, `\r`, `\u009b`, `\u202e`). */
export function escapeControls(s: string): string {
  return ANY_SHOWN_ESCAPED.test(s) ? s.replace(SHOWN_ESCAPED, visible) : s;
}

/** How a command prints sender data: escaped on a terminal, exact into a pipe or file. */
export type SafeText = (s: string) => string;

const exact: SafeText = (s) => s;

/**
 * The printer for this run's stdout. `isTTY` is decided once per process (in
 * cli-output.ts, where HOOKSCOPE_FORCE_TTY can force it) and handed in here.
 */
export function terminalSafe(isTTY: boolean | undefined): SafeText {
  return isTTY === true ? escapeControls : exact;
}

/**
 * JSON text with DEL and C1 written as `\u007f`..`\u009f`, and the bidi controls
 * as `\u202e` and the like. Same JSON value (those characters only occur inside
 * strings, where the escape means the same), so `--json` output is exact data
 * and still inert on a terminal; JSON.stringify already escapes C0.
 */
export function jsonWithEscapedControls(json: string): string {
  return json.replace(JSON_UNESCAPED_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
