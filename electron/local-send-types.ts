// The shapes of `sendFromThisComputer`'s call and answer, in a file of their own
// (no imports) so the renderer's desktop store types its bridge with the same
// ones the main process checks (electron/local-send.ts); the sandboxed preload
// spells them again, as it can load no file of ours.

/**
 * What the page hands to `sendFromThisComputer`: the request the engine built
 * for a delivery (`POST /api/replay/:webhookLogId/outgoing`, its answer as is),
 * and how long to wait for the target.
 */
export interface LocalRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: string;
  bodyEncoding: 'utf8' | 'base64';
  timeoutMs?: number;
}

/**
 * http-sender's SendResult as the page can receive it (structured clone: no
 * Buffer). `Code`: the renderer narrows it to the codes `POST
 * /api/replay/{id}/sent` takes, which are http-sender's own.
 */
export interface LocalSendResult<Code extends string = string> {
  status: number | null;
  responseHeaders: [string, string][];
  /** Base64, at most http-sender's RESPONSE_CAP_BYTES decoded. */
  responseBody: string;
  responseTruncated: boolean;
  responseTime: number;
  error: { code: Code; message: string } | null;
}
