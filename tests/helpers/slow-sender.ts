import { connect, type Socket } from 'node:net';

export interface SlowResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  json<T = any>(): T;
}

/**
 * A sender on a bare socket, for what HTTP clients will not do: stop in the
 * middle of the headers, declare a Content-Length and never send it, trickle
 * a body one byte at a time. `response` settles with the first response on the
 * connection, however early it comes.
 */
export interface SlowSender {
  socket: Socket;
  write(data: string | Buffer): void;
  response: Promise<SlowResponse>;
  close(): void;
}

export function slowSender(url: string, head: string): SlowSender {
  const u = new URL(url);
  const socket = connect(Number(u.port), u.hostname);
  socket.write(head);
  const response = new Promise<SlowResponse>((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const tryParse = (): boolean => {
      const end = buf.indexOf('\r\n\r\n');
      if (end === -1) return false;
      const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(lines[0]!.split(' ')[1]);
      const headers: Record<string, string> = {};
      for (const l of lines.slice(1)) {
        const i = l.indexOf(':');
        headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      const len = Number(headers['content-length'] ?? NaN);
      const rest = buf.subarray(end + 4);
      if (!Number.isFinite(len) || rest.length < len) return false;
      const body = rest.subarray(0, len).toString('utf8');
      resolve({ status, headers, body, json: () => JSON.parse(body) });
      return true;
    };
    socket.on('data', (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      tryParse();
    });
    socket.on('error', (e) => reject(e));
    socket.on('close', () => {
      if (!tryParse())
        reject(new Error(`connection closed without a whole response: ${JSON.stringify(buf.toString('latin1'))}`));
    });
  });
  response.catch(() => undefined);
  return {
    socket,
    write: (data) => {
      if (!socket.destroyed) socket.write(data);
    },
    response,
    close: () => socket.destroy(),
  };
}

/** The request line and headers of a POST to `path` on `url`'s host. */
export function postHead(url: string, path: string, headers: Record<string, string | number> = {}): string {
  const u = new URL(url);
  const lines = [`POST ${path} HTTP/1.1`, `Host: ${u.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}
