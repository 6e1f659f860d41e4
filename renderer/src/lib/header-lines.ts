/** One response header as the engine takes it: in order and case, a name may repeat. */
export interface HeaderPair {
  name: string;
  value: string;
}

export type ParsedHeaderLines = { ok: true; headers: HeaderPair[] } | { ok: false; error: string };

// An HTTP token (RFC 9110 section 5.6.2): what a header name may hold.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Headers typed one `Name: value` per line. Blank lines are skipped; the space
 * around a value is not part of it (RFC 9110's optional whitespace). The first
 * line that is not a header is named, so the user can fix it where it is.
 */
export function parseHeaderLines(text: string): ParsedHeaderLines {
  const headers: HeaderPair[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon).trim();
    if (colon === -1 || name === '') {
      return { ok: false, error: `Headers, line ${i + 1}: write it as "Name: value".` };
    }
    if (!TOKEN.test(name)) {
      return { ok: false, error: `Headers, line ${i + 1}: "${name}" is not a valid header name.` };
    }
    headers.push({ name, value: line.slice(colon + 1).trim() });
  }
  return { ok: true, headers };
}

/** The other way: what the text box shows for headers the engine holds. */
export function formatHeaderLines(headers: readonly HeaderPair[]): string {
  return headers.map((h) => `${h.name}: ${h.value}`).join('\n');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A received header value as text. The engine keeps header values as Node gives
 * them, one character per byte (latin1); when those bytes are valid UTF-8 (what
 * senders mean by a non-ASCII value) this is their UTF-8 reading, which is also the
 * text that gives back the same bytes when pasted into a UTF-8 shell or file (the
 * engine's own headerText, server/support/header-text.ts, does the same for the
 * CLI, HAR and share pages). Any other value is returned as it is.
 */
export function headerValueText(value: string): string {
  let nonAscii = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // Not one character per byte: not as Node decodes headers, so not ours to re-read.
    if (c > 0xff) return value;
    if (c > 0x7f) nonAscii = true;
  }
  if (!nonAscii) return value;
  try {
    return UTF8.decode(Uint8Array.from(value, (ch) => ch.charCodeAt(0)));
  } catch {
    return value;
  }
}
