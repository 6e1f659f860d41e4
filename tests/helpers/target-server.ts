import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a target server received, exactly (raw header pairs in order and case, body bytes). */
export interface Received {
  method: string;
  url: string;
  rawHeaders: [string, string][];
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Never answer (the socket stays open until the server closes). */
  hang?: boolean;
}

export type Responder = (req: Received, index: number) => Reply;

/**
 * A real HTTP server on 127.0.0.1 standing in for a user's local webhook
 * handler: it records every request and answers with `respond`. `down` makes it
 * reset every new connection, as a dev server that is not up would look to a
 * client, while it keeps its port: "down, then back on the same port" without
 * freeing a port and hoping to get it back.
 */
export class TargetServer {
  readonly received: Received[] = [];
  respond: Responder = () => ({ status: 200, body: 'ok' });
  private server: Server | null = null;
  private waiters: { n: number; resolve: () => void }[] = [];
  port = 0;
  /** While true every new connection is reset before a request is read; nothing is recorded. */
  down = false;

  static async start(respond?: Responder, port = 0): Promise<TargetServer> {
    const t = new TargetServer();
    if (respond) t.respond = respond;
    await t.listen(port);
    return t;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(port = this.port): Promise<void> {
    const server = createServer((req, res) => this.handle(req, res));
    server.on('connection', (socket) => {
      if (this.down) socket.resetAndDestroy();
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and drops every open connection (hanging ones included); the port is then closed. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = once(server, 'close');
    server.close();
    server.closeAllConnections();
    await closed;
  }

  /** Resolves once `n` requests have arrived (or rejects after `ms`, naming what was missing). */
  async waitForCount(n: number, ms = 15_000): Promise<void> {
    if (this.received.length >= n) return;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<void>((resolve) => this.waiters.push({ n, resolve }));
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`target received ${this.received.length} requests, expected ${n}`)),
        ms,
      );
    });
    try {
      await Promise.race([arrived, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const pairs: [string, string][] = [];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
      const r: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        rawHeaders: pairs,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      const index = this.received.length;
      this.received.push(r);
      for (const w of this.waiters.filter((w) => this.received.length >= w.n)) w.resolve();
      this.waiters = this.waiters.filter((w) => this.received.length < w.n);
      const reply = this.respond(r, index);
      if (reply.hang) return;
      res.writeHead(reply.status ?? 200, reply.headers ?? {});
      res.end(reply.body ?? '');
    });
  }
}

/** Polls `check` until it returns a truthy value; a bounded wait, never a timing assertion. */
export async function waitUntil<T>(check: () => Promise<T> | T, what: string, ms = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
