import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Captured {
  method: string;
  url: string;
  rawHeaders: [string, string][];
  body: Buffer;
}

export interface CaptureServer {
  url: string;
  port: number;
  requests: Captured[];
  /** Resolves with the next request that arrives. */
  next(): Promise<Captured>;
  close(): Promise<void>;
}

/** A local HTTP server that records every request byte for byte and answers 200. */
export async function startCaptureServer(): Promise<CaptureServer> {
  const requests: Captured[] = [];
  const waiting: ((c: Captured) => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const pairs: [string, string][] = [];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
      const c: Captured = {
        method: req.method ?? '',
        url: req.url ?? '',
        rawHeaders: pairs,
        body: Buffer.concat(chunks),
      };
      requests.push(c);
      waiting.shift()?.(c);
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
