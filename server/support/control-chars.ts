/**
 * Characters a terminal acts on: the Unicode `Cc` set except tab and newline,
 * i.e. C0 (ESC starts CSI/OSC sequences, a lone CR overwrites a line), DEL and
 * C1 (U+0080-U+009F; U+009B is a one-character CSI). Sender data shown on a
 * terminal (the CLI) or printed as a command (the cURL export) must not carry
 * them raw.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex -- the same set, no global flag, for a stateless test
const ANY_TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export const hasTerminalControls = (s: string): boolean => ANY_TERMINAL_CONTROL.test(s);
