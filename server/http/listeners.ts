import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { AppError, ForbiddenError, NotFoundError, RequestTimeoutError, ValidationError } from '../errors/app-errors.ts';
import { rawErrorResponse, sendData, sendError } from './envelope.ts';
import { apiHostCheck } from './host-check.ts';
import { timeHeadersFromFirstByte } from './headers-from-first-byte.ts';
import { ListenError } from './listen-error.ts';

export type RawHandler = (req: IncomingMessage, res: ServerResponse) => void;
/**
 * Which listener a delivery came to. `api` is the UI's origin: nothing a sender
 * or another account chooses may run there, so it gets only the default JSON
 * answer, never an endpoint's custom response. `public`: the receiver and tunnel listeners.
 */
export type DeliveryDoor = 'api' | 'public';
export type DeliveryHandler = (req: IncomingMessage, res: ServerResponse, door: DeliveryDoor) => void;

export interface ListenerOptions {
  apiHost: string;
  apiPort: number;
  receiverHost: string;
  receiverPort: number;
  /** The team server's public URL (`--public-url`): the one host the API accepts beside loopback names. */
  publicUrl: string | null;
  /** Express app for everything on the API listener that is not a delivery. */
  apiApp: RequestListener;
  receiver: DeliveryHandler;
  /** `/share/<token>` pages; the sharing feature plugs in here. */
  share?: RawHandler;
  /** Tight limits for the public listener, which whoever learns the URL can reach. */
  receiverTimeouts: { headersTimeoutMs: number; requestTimeoutMs: number };
}

export interface RunningListeners {
  api: Server;
  receiver: Server;
  tunnel: Server;
  apiUrl: string;
  receiverUrl: string;
  /** The tunnel client's own loopback listener (see below): never shown to users. */
  tunnelUrl: string;
  close(): Promise<void>;
}

const isWebhook = (url: string | undefined): boolean => url !== undefined && url.startsWith('/webhook/');
const isShare = (url: string | undefined): boolean => url !== undefined && url.startsWith('/share/');

/**
 * Two listeners, one security boundary (DESIGN.md "Two listeners"):
 * the private API listener (on loopback, or behind a team server's proxy) with a Host check, and the public
 * receiver listener serving only deliveries, share pages and a health check,
 * so no /api path ever answers through the tunnel.
 *
 * A third listener, on a free loopback port, serves the same public routes to
 * the tunnel client alone. localtunnel opens its sockets ahead of time and keeps
 * them idle for as long as no delivery comes, so that listener times headers
 * from a request's first byte (headers-from-first-byte.ts). The receiver
 * listener keeps Node's own timers, which cost nothing on the hot path.
 */
export async function startListeners(o: ListenerOptions): Promise<RunningListeners> {
  const isAllowedApiHost = apiHostCheck(o.publicUrl);
  const allowedNames =
    o.publicUrl === null ? '127.0.0.1 or localhost' : `${new URL(o.publicUrl).host}, 127.0.0.1 or localhost`;
  const api = createServer((req, res) => {
    if (!isAllowedApiHost(req.headers.host)) {
      req.resume();
      sendError(
        res,
        new ForbiddenError(`Host "${req.headers.host ?? ''}" is not allowed; use ${allowedNames}.`, 'FORBIDDEN_HOST'),
      );
      return;
    }
    if (isWebhook(req.url)) return o.receiver(req, res, 'api');
    if (refuseUndecodable(req, res)) return;
    if (isShare(req.url) && o.share) return o.share(req, res);
    o.apiApp(req, res);
  });
  answerClientErrors(api);

  // Node's own request timer is only a backstop: the receiver times the body itself
  // (so it can record the cut-off delivery), within requestTimeoutMs of the headers.
  const t = o.receiverTimeouts;
  const receiver = createServer(
    {
      headersTimeout: t.headersTimeoutMs,
      requestTimeout: t.headersTimeoutMs + t.requestTimeoutMs,
      // How often Node checks those timers (default 30 s, far coarser than the limits).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(t.headersTimeoutMs / 4))),
    },
    publicRoutes(o),
  );
  answerClientErrors(receiver);

  // Both 0: Node checks neither timer. The receiver still times every body itself.
  const tunnel = createServer({ headersTimeout: 0, requestTimeout: 0 }, publicRoutes(o));
  timeHeadersFromFirstByte(tunnel, t.headersTimeoutMs, (socket) => {
    socket.end(rawErrorResponse(clientErrorFor('ERR_HTTP_REQUEST_TIMEOUT')), () => socket.destroy());
  });
  answerClientErrors(tunnel);

  const opened: Server[] = [];
  try {
    await listen(api, o.apiHost, o.apiPort, 'API', '--api-port');
    opened.push(api);
    await listen(receiver, o.receiverHost, o.receiverPort, 'receiver', '--receiver-port');
    opened.push(receiver);
    await listen(tunnel, '127.0.0.1', 0, 'tunnel', '--receiver-port');
  } catch (e) {
    await Promise.all(opened.map(closeServer));
    throw e;
  }
  return {
    api,
    receiver,
    tunnel,
    apiUrl: urlOf(api, o.apiHost),
    receiverUrl: urlOf(receiver, o.receiverHost),
    tunnelUrl: urlOf(tunnel, '127.0.0.1'),
    close: async () => {
      await Promise.all([closeServer(api), closeServer(receiver), closeServer(tunnel)]);
    },
  };
}

/** What the receiver and tunnel listeners serve: deliveries, share pages and a health check, nothing else. */
function publicRoutes(o: ListenerOptions): RequestListener {
  return (req, res) => {
    const url = req.url ?? '/';
    if (isWebhook(url)) return o.receiver(req, res, 'public');
    if (refuseUndecodable(req, res)) return;
    if (isShare(url) && o.share) return o.share(req, res);
    req.resume();
    if (url === '/healthz' || url.startsWith('/healthz?')) {
      sendData(res, { status: 'ok' });
      return;
    }
    sendError(
      res,
      new NotFoundError('Only /webhook/<endpointId>, /share/<token> and /healthz are served here.', 'ROUTE_NOT_FOUND'),
    );
  };
}

/**
 * A path that is not valid percent-encoding is the client's mistake: 400 with
 * the envelope, before any router tries to decode it (Express would throw a
 * 500-looking URIError). Deliveries are exempt: their sub-path is captured as sent.
 */
function refuseUndecodable(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    req.resume();
    sendError(
      res,
      new ValidationError(
        `The path "${pathname.slice(0, 200)}" is not valid percent-encoding.`,
        { field: 'path' },
        'INVALID_PATH',
      ),
    );
    return true;
  }
}

/**
 * Requests Node refuses before any handler runs (malformed, headers too large or
 * too slow) get the error envelope too, instead of Node's bare status line.
 * A socket whose response has started is only closed: writing there would
 * corrupt the answer already on its way.
 */
function answerClientErrors(server: Server): void {
  const answering = new WeakSet<Socket>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    answering.add(req.socket);
    res.on('close', () => answering.delete(req.socket));
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable || answering.has(socket)) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(clientErrorFor(err.code)));
  });
}

function clientErrorFor(code: string | undefined): AppError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new RequestTimeoutError('The request headers did not arrive in time.');
    case 'HPE_HEADER_OVERFLOW':
      return new AppError(431, 'HEADERS_TOO_LARGE', 'The request headers are larger than the server accepts.');
    default:
      return new AppError(400, 'BAD_REQUEST', 'The request is not valid HTTP/1.1.');
  }
}

function listen(server: Server, host: string, port: number, what: string, flag: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') {
        reject(
          new ListenError(
            `Port ${port} on ${host} is already in use (${what} listener); choose another with ${flag} N, or ${flag} 0 for a free one.`,
          ),
        );
      } else if (err.code === 'EACCES') {
        reject(
          new ListenError(
            `Not allowed to listen on ${host}:${port} (${what} listener); choose a port above 1024 with ${flag} N.`,
          ),
        );
      } else {
        reject(new ListenError(`Cannot listen on ${host}:${port} (${what} listener): ${err.message}`));
      }
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function urlOf(server: Server, host: string): string {
  return localUrl(host, (server.address() as AddressInfo).port);
}

/**
 * The URL this machine reaches a listener at. A listener bound to every interface
 * (`0.0.0.0`, `::`) is named by loopback: `http://0.0.0.0:4680` is no address to
 * send to, and the API's Host check would refuse the CLI's `Host: 0.0.0.0`.
 */
export function localUrl(host: string, port: number): string {
  const named = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${named.includes(':') ? `[${named}]` : named}:${port}`;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    // Keep-alive connections would hold close() open until they time out.
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2000).unref();
  });
}
