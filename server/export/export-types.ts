export const EXPORT_FORMATS = ['curl', 'json', 'har', 'http'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportRequest {
  format: ExportFormat;
  /** Hide credential and signature values (share/redaction.ts); the owner's default is false. */
  redact: boolean;
  /** The URL to put in curl and http; default the endpoint's local receiver URL + path + query. */
  target?: string;
}
