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
