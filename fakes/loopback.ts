import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import getRawBody from 'raw-body';

/** The largest request body a fake reads. */
const MAX_BODY_BYTES = 1_000_000;

/** A request's body as text, at most MAX_BODY_BYTES; rejects a larger one (raw-body, as the gateway reads its own). */
export const readBody = (req: IncomingMessage): Promise<string> => getRawBody(req, { limit: MAX_BODY_BYTES, encoding: 'utf8' });

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A venue fake's HTTP server on loopback: listening, its origin, and closing it at once (every open
 * connection destroyed, so that a test's `close()` never waits for a client's keep-alive).
 */
export class LoopbackServer {
  private readonly sockets = new Set<Socket>();

  constructor(readonly server: Server) {
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  listen(port = 0, host = '127.0.0.1'): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
  }

  /** `http://host:port`, an IPv6 host in brackets. */
  get origin(): string {
    const { address, port } = this.server.address() as AddressInfo;
    return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
