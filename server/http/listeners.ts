import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ForbiddenError, NotFoundError } from '../errors/app-errors.ts';
import { sendError, sendJson } from './envelope.ts';
import { isAllowedApiHost } from './host-check.ts';

export type RawHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface ListenerOptions {
  apiHost: string;
  apiPort: number;
  receiverHost: string;
  receiverPort: number;
  /** Express app for everything on the API listener that is not a delivery. */
  apiApp: RequestListener;
  receiver: RawHandler;
  /** `/share/<token>` pages; the sharing feature plugs in here. */
  share?: RawHandler;
}

export interface RunningListeners {
  api: Server;
  receiver: Server;
  apiUrl: string;
  receiverUrl: string;
  close(): Promise<void>;
}

/** A listener could not bind; the message is one line a user can act on. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenError';
  }
}

const isWebhook = (url: string | undefined): boolean => url !== undefined && url.startsWith('/webhook/');
const isShare = (url: string | undefined): boolean => url !== undefined && url.startsWith('/share/');

/**
 * Two listeners, one security boundary (DESIGN.md "Two listeners"):
 * the private API listener on loopback with a Host check, and the public
 * receiver listener, which the tunnel points at, serving only deliveries,
 * share pages and a health check, so no /api path ever answers through the tunnel.
 */
export async function startListeners(o: ListenerOptions): Promise<RunningListeners> {
  const api = createServer((req, res) => {
    if (!isAllowedApiHost(req.headers.host)) {
      req.resume();
      sendError(res, new ForbiddenError(`Host "${req.headers.host ?? ''}" is not allowed; use 127.0.0.1 or localhost.`, 'FORBIDDEN_HOST'));
      return;
    }
    if (isWebhook(req.url)) return o.receiver(req, res);
    if (isShare(req.url) && o.share) return o.share(req, res);
    o.apiApp(req, res);
  });

  const receiver = createServer((req, res) => {
    const url = req.url ?? '/';
    if (isWebhook(url)) return o.receiver(req, res);
    if (isShare(url) && o.share) return o.share(req, res);
    req.resume();
    if (url === '/healthz' || url.startsWith('/healthz?')) {
      sendJson(res, 200, { success: true, data: { status: 'ok' } });
      return;
    }
    sendError(res, new NotFoundError('Only /webhook/<endpointId>, /share/<token> and /healthz are served here.', 'ROUTE_NOT_FOUND'));
  });

  await listen(api, o.apiHost, o.apiPort, 'API', '--api-port');
  try {
    await listen(receiver, o.receiverHost, o.receiverPort, 'receiver', '--receiver-port');
  } catch (e) {
    await closeServer(api);
    throw e;
  }
  return {
    api,
    receiver,
    apiUrl: urlOf(api, o.apiHost),
    receiverUrl: urlOf(receiver, o.receiverHost),
    close: async () => {
      await Promise.all([closeServer(api), closeServer(receiver)]);
    },
  };
}

function listen(server: Server, host: string, port: number, what: string, flag: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') {
        reject(new ListenError(`Port ${port} on ${host} is already in use (${what} listener); choose another with ${flag} N, or ${flag} 0 for a free one.`));
      } else if (err.code === 'EACCES') {
        reject(new ListenError(`Not allowed to listen on ${host}:${port} (${what} listener); choose a port above 1024 with ${flag} N.`));
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
  const { port } = server.address() as AddressInfo;
  const h = host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}`;
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
