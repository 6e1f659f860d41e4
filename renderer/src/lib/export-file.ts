import type { ApiSchemas, ExportFormat } from '../api/client.ts';
import { bodyBytes } from './body-views.ts';
import { enumKeys } from './enum-keys.ts';

export type ExportFile = ApiSchemas['Export'];
/** The formats saved as files; cURL is copied as text instead (Copy as cURL). */
export type DownloadFormat = Exclude<ExportFormat, 'curl'>;

const MENU_LABELS: Record<DownloadFormat, string> = { json: 'JSON', har: 'HAR', http: 'Raw HTTP' };

/** The detail's Export menu, in order: what each item is called and the format it asks the engine for. */
export const EXPORT_CHOICES: readonly { format: DownloadFormat; label: string }[] = enumKeys(MENU_LABELS).map(
  (format) => ({ format, label: MENU_LABELS[format] }),
);

/** `hookscope-<logId>.<format>`; anything but letters, digits, `_` and `-` in the id becomes `_` (a file name, not a path). */
export function exportFilename(logId: string, format: DownloadFormat): string {
  return `hookscope-${logId.replace(/[^A-Za-z0-9_-]/g, '_')}.${format}`;
}

/** The engine's export bytes: its text as is, or the bytes of a base64 export (raw HTTP of a binary body). */
export function exportBytes(file: Pick<ExportFile, 'content' | 'contentEncoding'>): Uint8Array<ArrayBuffer> {
  return bodyBytes(file.content, file.contentEncoding);
}
