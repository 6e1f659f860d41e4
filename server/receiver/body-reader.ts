import type { IncomingMessage } from 'node:http';

export interface BodyRead {
  /** The whole body, or its first bytes when tooLarge. */
  body: Buffer;
  /** Bytes received so far, or the declared Content-Length when that alone was over the limit. */
  size: number;
  tooLarge: boolean;
  /** The sender went away before the body ended: nothing was acknowledged, nothing is stored. */
  aborted: boolean;
}

export interface BodyLimits {
  maxBytes: number;
  /** How much of an over-limit body to keep, so the user sees what was refused. */
  previewBytes: number;
  /** After refusing, how much more to read and discard before closing the connection. */
  drainBytes: number;
  drainMs: number;
}

/**
 * Reads a request body as raw bytes, never parsing it. Over the limit (declared
 * by Content-Length, or found while streaming) it settles as soon as it holds the
 * preview, then keeps reading and discarding (bounded) so the sender, which is
 * usually still writing, receives the 413 instead of a connection reset.
 */
export function readBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyRead> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    const declaredTooLarge = Number.isFinite(declared) && declared > limits.maxBytes;
    const preview = Math.min(limits.previewBytes, limits.maxBytes);
    const chunks: Buffer[] = [];
    let kept = 0;
    let size = 0;
    let tooLarge = declaredTooLarge;
    let settled = false;

    const settle = (aborted: boolean): void => {
      if (settled) return;
      settled = true;
      const body = Buffer.concat(chunks, kept);
      resolve({ body, size: declaredTooLarge ? declared : size, tooLarge, aborted });
      if (tooLarge && !req.complete) drain();
    };

    const drain = (): void => {
      chunks.length = 0;
      let drained = 0;
      const stop = setTimeout(() => req.socket.destroy(), limits.drainMs);
      stop.unref();
      req.removeAllListeners('data');
      req.on('data', (c: Buffer) => {
        drained += c.length;
        if (drained > limits.drainBytes) req.socket.destroy();
      });
      req.on('close', () => clearTimeout(stop));
      req.resume();
    };

    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (!tooLarge && size > limits.maxBytes) tooLarge = true;
      if (tooLarge) {
        if (kept < preview) {
          const take = chunk.subarray(0, preview - kept);
          chunks.push(take);
          kept += take.length;
        }
        if (kept >= preview) settle(false);
        return;
      }
      chunks.push(chunk);
      kept += chunk.length;
    });
    req.on('end', () => settle(false));
    req.on('close', () => settle(!req.complete && !tooLarge));
    req.on('error', () => settle(!tooLarge));
  });
}
