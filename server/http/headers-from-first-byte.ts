import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Times each request's headers from its first byte, not from the connection.
 *
 * Node's `headersTimeout` counts from the moment a socket connects (on purpose,
 * against connections that never send anything). localtunnel's client opens its
 * sockets to us ahead of time and leaves them idle until a delivery comes.
 * Counted from the connection, every idle socket got a 408 once the timeout
 * passed, and that stale 408 became the answer to the next real delivery
 * (measured through the reference server: after 40 s of quiet, ten deliveries
 * got 408 ×9 and a reset, and nothing was stored). So the tunnel's listener turns
 * Node's timers off and times requests here: from the first byte of a request
 * until its headers are parsed. A slow sender through the tunnel is still cut off.
 *
 * A request is in progress from its headers until both it and its response have
 * closed (a body still being drained after an early answer is not a new
 * request's headers); only bytes that arrive outside a request start the timer.
 * A request pipelined behind another is not timed (its bytes came during the
 * first): the tunnel server sends one request per socket at a time.
 */
export function timeHeadersFromFirstByte(server: Server, timeoutMs: number, onTimeout: (socket: Socket) => void): void {
  const states = new WeakMap<Socket, SocketTimer>();
  server.on('connection', (socket: Socket) => {
    const state = new SocketTimer(timeoutMs, () => onTimeout(socket));
    states.set(socket, state);
    // Adding a 'data' listener makes Node feed this socket's parser from JavaScript
    // rather than from C++: a cost only the tunnel's listener pays.
    socket.on('data', () => state.bytesArrived());
    socket.once('close', () => state.clear());
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const state = states.get(req.socket);
    if (!state) return;
    state.requestStarted();
    let open = 2;
    const closed = (): void => {
      if (--open === 0) state.requestEnded();
    };
    req.once('close', closed);
    res.once('close', closed);
  });
}

class SocketTimer {
  private timer: NodeJS.Timeout | null = null;
  private active = 0;

  constructor(
    private readonly timeoutMs: number,
    private readonly fire: () => void,
  ) {}

  bytesArrived(): void {
    if (this.active > 0 || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.active === 0) this.fire();
    }, this.timeoutMs);
  }

  requestStarted(): void {
    this.active++;
    this.clear();
  }

  requestEnded(): void {
    this.active--;
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
