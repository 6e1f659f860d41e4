import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** As received, flat: name, value, name, value... (case and order kept). */
  rawHeaders: string[];
  body: Buffer;
  json<T = any>(): T;
}

/**
 * node:http instead of fetch where fetch cannot be used: it forbids setting Host,
 * and it lower-cases header names, while the receiver must be shown to keep case and order.
 */
export function rawRequest(
  url: string,
  opts: {
    method?: string;
    headers?: [string, string | string[]][];
    body?: Buffer | string;
    chunked?: boolean;
    /** The source address to connect from (e.g. 127.0.0.2, a second loopback client). */
    localAddress?: string;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request({
      host: u.hostname,
      port: u.port,
      path: u.pathname + u.search,
      method: opts.method ?? 'POST',
      setHost: false,
      ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
    });
    let hasHost = false;
    for (const [name, value] of opts.headers ?? []) {
      if (name.toLowerCase() === 'host') hasHost = true;
      req.setHeader(name, value);
    }
    if (!hasHost) req.setHeader('Host', u.host);
    if (opts.body !== undefined && !opts.chunked) req.setHeader('Content-Length', Buffer.byteLength(opts.body));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body,
          json: () => JSON.parse(body.toString('utf8')),
        });
      });
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}
