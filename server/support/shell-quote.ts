/**
 * POSIX shell single quoting: inside '...' every character is literal, and a
 * quote is written as '\'' (close, escaped quote, reopen). Safe for any string
 * without NUL, which no argument can hold. The result is the same in sh (dash),
 * bash and zsh. It does not make a string safe to print: a caller that prints
 * the command keeps terminal controls out first (see export/curl-builder.ts).
 */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Characters no POSIX shell gives a meaning to inside a word (no glob, expansion, operator or space). */
const PLAIN_WORD = /^[\w./-]+$/;

/** A word for a command printed to a human: left bare when the shell reads it unchanged, else shellQuote'd. */
export const shellArg = (s: string): string => (PLAIN_WORD.test(s) ? s : shellQuote(s));
