import { request, createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { TunnelServer } from './tunnel-server.ts';

export interface SilentDropFront {
  /** Register the engine's tunnel here (`tunnel.host`); deliveries and probes still go to the real server. */
  readonly origin: string;
  /**
   * The laptop-sleep case: the tunnel server loses every socket the client
   * holds (and so forgets the client a second later), but the client is told
   * nothing: its side of each socket stays open and silent. Sockets the client
   * opens afterwards work again.
   */
  dropSilently(): void;
  /** Client sockets currently carried to the server. */
  carried(): number;
  close(): Promise<void>;
}

/**
 * Sits between the localtunnel client and the real localtunnel server. The
 * registration (`GET /<subdomain>`) is passed through, with the TCP port in the
 * answer replaced by a relay's; the client's sockets then run through that relay
 * to the server's port. Nothing else is changed.
 */
export async function startSilentDropFront(server: TunnelServer): Promise<SilentDropFront> {
  const relays = new Map<number, Relay>();
  const front: HttpServer = createHttpServer((req, res) => {
    const upstream = request(
      { host: '127.0.0.1', port: server.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          void (async () => {
            let body = Buffer.concat(chunks);
            const parsed = tryJson(body);
            if (answer.statusCode === 200 && parsed && typeof parsed.port === 'number') {
              const relay = relays.get(parsed.port) ?? (await Relay.open(parsed.port));
              relays.set(parsed.port, relay);
              body = Buffer.from(JSON.stringify({ ...parsed, port: relay.port }));
            }
            res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' });
            res.end(body);
          })();
        });
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    dropSilently: () => relays.forEach((r) => r.dropSilently()),
    carried: () => [...relays.values()].reduce((n, r) => n + r.carried(), 0),
    close: async () => {
      await Promise.all([...relays.values()].map((r) => r.close()));
      front.closeAllConnections();
      await new Promise<void>((r) => front.close(() => r()));
    },
  };
}

class Relay {
  private readonly pairs = new Set<{ client: Socket; server: Socket }>();
  private readonly muted = new Set<Socket>();

  private constructor(
    private readonly listener: Server,
    readonly port: number,
  ) {}

  static async open(serverPort: number): Promise<Relay> {
    const listener = createServer();
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const relay = new Relay(listener, (listener.address() as AddressInfo).port);
    listener.on('connection', (client) => relay.carry(client, serverPort));
    return relay;
  }

  private carry(client: Socket, serverPort: number): void {
    const server = connect(serverPort, '127.0.0.1');
    const pair = { client, server };
    this.pairs.add(pair);
    client.on('error', () => undefined);
    server.on('error', () => undefined);
    client.pipe(server);
    server.pipe(client);
    const forget = (): void => {
      this.pairs.delete(pair);
    };
    client.once('close', () => {
      forget();
      this.muted.delete(client);
      server.destroy();
    });
    server.once('close', () => {
      forget();
      // A silent drop leaves the client's side open; any other close is passed on.
      if (!this.muted.has(client)) client.destroy();
    });
  }

  dropSilently(): void {
    for (const { client, server } of this.pairs) {
      this.muted.add(client);
      client.unpipe(server);
      server.unpipe(client);
      // Whatever the client sends from now on goes nowhere, and nothing comes back.
      client.pause();
      server.destroy();
    }
    this.pairs.clear();
  }

  carried(): number {
    return this.pairs.size;
  }

  async close(): Promise<void> {
    for (const s of this.muted) s.destroy();
    for (const { client, server } of this.pairs) {
      client.destroy();
      server.destroy();
    }
    await new Promise<void>((r) => this.listener.close(() => r()));
  }
}

function tryJson(body: Buffer): Record<string, unknown> | null {
  try {
    const v = JSON.parse(body.toString('utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
