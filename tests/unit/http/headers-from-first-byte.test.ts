import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from '../../helpers/node-test.ts';
import { timeHeadersFromFirstByte } from '../../../server/http/headers-from-first-byte.ts';
import { slowSender } from '../../helpers/slow-sender.ts';

const TIMEOUT_MS = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A server with Node's own timers off and the first-byte timer on, answering 408 like the tunnel listener. */
async function withServer(run: (url: string, timedOut: () => number) => Promise<void>): Promise<void> {
  let timeouts = 0;
  const server: Server = createServer({ headersTimeout: 0, requestTimeout: 0 }, (req, res) => {
    // Reads the whole body, slowly or not, then answers with what it read.
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.end(`read ${Buffer.concat(chunks).length}`));
  });
  timeHeadersFromFirstByte(server, TIMEOUT_MS, (socket) => {
    timeouts++;
    socket.end('HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n', () =>
      socket.destroy(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, () => timeouts);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

test('a connection that stays silent longer than the timeout, then sends a request, is answered', async () => {
  await withServer(async (url, timedOut) => {
    const s = slowSender(url, '');
    try {
      await sleep(TIMEOUT_MS * 3);
      s.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi');
      const r = await s.response;
      assert.equal(r.status, 200);
      assert.equal(r.body, 'read 2');
      assert.equal(timedOut(), 0);
    } finally {
      s.close();
    }
  });
});

test('headers that start but do not finish within the timeout get the timeout answer', async () => {
  await withServer(async (url, timedOut) => {
    const s = slowSender(url, 'POST / HTTP/1.1\r\n');
    const drip = setInterval(() => s.write('X-Drip: 1\r\n'), TIMEOUT_MS / 4);
    try {
      const started = Date.now();
      const r = await s.response;
      assert.equal(r.status, 408);
      assert.equal(timedOut(), 1);
      assert.ok(Date.now() - started >= TIMEOUT_MS - 20, 'not before the timeout');
    } finally {
      clearInterval(drip);
      s.close();
    }
  });
});

test('a body that takes longer than the header timeout is not cut by it (the receiver times bodies)', async () => {
  await withServer(async (url, timedOut) => {
    const s = slowSender(url, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\n');
    try {
      for (const c of 'abcdef') {
        await sleep(TIMEOUT_MS / 2);
        s.write(c);
      }
      const r = await s.response;
      assert.equal(r.status, 200);
      assert.equal(r.body, 'read 6');
      assert.equal(timedOut(), 0);
    } finally {
      s.close();
    }
  });
});

test('a kept-alive connection idle after its first answer times the next request from its first byte', async () => {
  await withServer(async (url, timedOut) => {
    const s = slowSender(url, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\na');
    try {
      assert.equal((await s.response).status, 200);
      const answers: Buffer[] = [];
      s.socket.on('data', (c: Buffer) => answers.push(c));
      await sleep(TIMEOUT_MS * 3);
      assert.equal(timedOut(), 0, 'idle between requests is not a slow request');
      s.write('POST / HTTP/1.1\r\nHost: x\r\n');
      await sleep(TIMEOUT_MS * 2);
      assert.equal(timedOut(), 1);
      assert.match(Buffer.concat(answers).toString('latin1'), /^HTTP\/1\.1 408 /);
    } finally {
      s.close();
    }
  });
});
