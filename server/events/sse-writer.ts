import type { ServerResponse } from 'node:http';

/** A client this far behind is dropped rather than buffered without bound; it resumes with Last-Event-ID. */
const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * Writes the `text/event-stream` wire format on one response. Every write
 * reports whether the stream is still usable, so the caller can clean up as
 * soon as a client is gone or too slow.
 */
export class SseWriter {
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES,
  ) {}

  /** Sends the headers at once (no proxy or compression buffering) and the client's reconnect delay. */
  open(retryMs: number): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.res.flushHeaders();
    this.write(`retry: ${retryMs}\n\n`);
  }

  /** One event; `data` is JSON, which never contains a raw newline, so one `data:` line suffices. */
  event(id: number, type: string, data: unknown): boolean {
    return this.write(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data ?? null)}\n\n`);
  }

  /** A comment line: ignored by clients, keeps proxies and idle timers from closing the stream. */
  comment(text: string): boolean {
    return this.write(`: ${text}\n\n`);
  }

  get isOpen(): boolean {
    return !this.ended && !this.res.destroyed && !this.res.writableEnded;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.res.writableEnded) this.res.end();
  }

  private write(chunk: string): boolean {
    if (!this.isOpen) return false;
    if (this.res.writableLength > this.maxBufferedBytes) {
      this.ended = true;
      this.res.destroy();
      return false;
    }
    this.res.write(chunk);
    return true;
  }
}
