import type { ApiSchemas } from '../api/client.ts';
import { bodyBytes } from './body-view.ts';

export type ExportFile = ApiSchemas['Export'];
export type DownloadFormat = 'json' | 'har' | 'http';

/** The detail's Export menu, in order: what each item is called and the format it asks the engine for. */
export const EXPORT_CHOICES: readonly { format: DownloadFormat; label: string }[] = [
  { format: 'json', label: 'JSON' },
  { format: 'har', label: 'HAR' },
  { format: 'http', label: 'Raw HTTP' },
];

/** `hookscope-<logId>.<format>`; anything but letters, digits, `_` and `-` in the id becomes `_` (a file name, not a path). */
export function exportFilename(logId: string, format: DownloadFormat): string {
  return `hookscope-${logId.replace(/[^A-Za-z0-9_-]/g, '_')}.${format}`;
}

/** The engine's export bytes: its text as is, or the bytes of a base64 export (raw HTTP of a binary body). */
export function exportBytes(file: Pick<ExportFile, 'content' | 'contentEncoding'>): Uint8Array<ArrayBuffer> {
  return bodyBytes(file.content, file.contentEncoding);
}
