// The baseline of the ingest goal: a bare node:http server that reads the whole
// body and answers 200 with a small JSON body, as the receiver does.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerParent } from './bench-child.ts';

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const payload = `{"success":true,"data":{"bytes":${Buffer.concat(chunks).length}}}`;
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(payload),
    });
    res.end(payload);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

answerParent(
  { url: `http://127.0.0.1:${port}/webhook/bare` },
  {
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  },
);
