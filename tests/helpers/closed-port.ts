import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface ClosedPort {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /**
   * Closes the held connection (cleanup). The port is not meant to be listened on
   * again: the kernel may keep it a while after the close. A target that goes
   * down and comes back on its port is TargetServer's `down` switch.
   */
  release(): Promise<void>;
}

/**
 * A loopback port that refuses connections (ECONNREFUSED) for as long as it is
 * held. A port freed by close() can be handed to another test's listener at any
 * time, and a fixed one (9) may be open on some machine; this one is the local
 * end of a connection we keep open, so nothing can listen on it and nobody
 * listens there: a connect to it gets a reset, reliably. It is held until
 * release() or the end of the test file's process (the sockets are unref'd).
 */
export async function closedPort(): Promise<ClosedPort> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = once(server, 'connection') as Promise<[Socket]>;
  const holder = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await once(holder, 'connect');
  const [peer] = await accepted;
  // Stops listening; the accepted connection stays, and with it the holder's local port.
  server.close();
  for (const s of [holder, peer]) {
    s.on('error', () => undefined);
    s.resume();
    s.unref(); // held for the test, never what keeps its process alive
  }
  const port = holder.localPort!;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    release: async () => {
      if (holder.destroyed) return;
      holder.ref(); // waited for now
      const closed = once(holder, 'close');
      // The accepting side closes first, so TIME_WAIT lands on its port, not on the one released.
      peer.destroy();
      await closed;
    },
  };
}
