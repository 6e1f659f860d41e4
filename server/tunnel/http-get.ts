import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpGetOptions {
  headers?: Record<string, string>;
  /** Gives up (rejecting with a sentence) after this long. */
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Connect here instead of the URL's own host and port, still sending the
   * URL's host in the Host header (and TLS SNI): how the health probe reaches a
   * self-hosted tunnel server whose handed-out URLs do not resolve.
   */
  connectTo?: string | null;
  /** Redirects followed (the registration request; never the probe). */
  maxRedirects?: number;
  maxBodyBytes?: number;
}

export interface HttpGetResult {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One bounded GET on node:http without connection pooling (`agent: false`), so
 * nothing it opens outlives the call: the tunnel supervisor must be able to
 * abandon an attempt and leave no socket or timer behind. fetch cannot be used
 * here: it forbids setting Host, and its pooled sockets outlive the request.
 */
export async function httpGet(url: string, opts: HttpGetOptions): Promise<HttpGetResult> {
  let target = new URL(url);
  for (let hop = 0; ; hop++) {
    const res = await getOnce(target, opts);
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && location && hop < (opts.maxRedirects ?? 0)) {
      target = new URL(location, target);
      continue;
    }
    return res;
  }
}

function getOnce(url: URL, opts: HttpGetOptions): Promise<HttpGetResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(abortReason(opts.signal));
      return;
    }
    const via = opts.connectTo ? new URL(opts.connectTo) : url;
    const secure = via.protocol === 'https:';
    const request = secure ? httpsRequest : httpRequest;
    const req = request({
      host: via.hostname.replace(/^\[|\]$/g, ''),
      port: via.port || (secure ? 443 : 80),
      servername: secure ? url.hostname : undefined,
      path: url.pathname + url.search,
      method: 'GET',
      agent: false,
      headers: { host: url.host, connection: 'close', ...opts.headers },
    });
    const limit = opts.maxBodyBytes ?? 256 * 1024;
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer from ${url.host} within ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    const onAbort = (): void => {
      req.destroy(abortReason(opts.signal!));
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const done = (): void => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    req.on('error', (e) => {
      done();
      reject(e);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= limit) chunks.push(c);
      });
      res.on('error', (e) => {
        done();
        reject(e);
      });
      res.on('end', () => {
        done();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.end();
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('cancelled');
}
