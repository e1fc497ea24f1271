/**
 * Test helper: a node:http server on a free loopback port answering with a listener.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening test server. */
export interface Listening {
  /** Its base URL (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** Cuts its connections and stops it. */
  close(): Promise<void>;
}

/** Starts `listener` on port 0 of the loopback interface. */
export async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<Listening> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
