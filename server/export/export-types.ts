export const EXPORT_FORMATS = ['curl', 'json', 'har', 'http'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportRequest {
  format: ExportFormat;
  /** Hide credential and signature values (share/redaction.ts); the owner's default is false. */
  redact: boolean;
  /** The URL to put in curl and http; default the endpoint's local receiver URL + path + query. */
  target?: string;
}

export interface ExportResult {
  format: ExportFormat;
  filename: string;
  contentType: string;
  /** `utf8`: content is the file's text; `base64`: the file's bytes (an http export of a binary body). */
  contentEncoding: 'utf8' | 'base64';
  content: string;
}
