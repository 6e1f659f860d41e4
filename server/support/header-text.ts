import { isUtf8 } from 'node:buffer';

/**
 * Node hands header values over as latin1 (one char per byte). When those bytes
 * are UTF-8 (the usual case for non-ASCII values), the UTF-8 reading is the text
 * that, written out in a UTF-8 shell or file, gives back the same bytes.
 */
export function headerText(value: string): string {
  const bytes = Buffer.from(value, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : value;
}
