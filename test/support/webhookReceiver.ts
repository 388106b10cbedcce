import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
}

/** A receiver on loopback: every request kept; `answer` decides the status, now or later (or never answers: null). */
export async function receiver(answer: (request: Received, count: number) => number | null | Promise<number>) {
  const received: Received[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(request);
      const status = answer(request, received.filter((r) => r.path === request.path).length);
      if (status === null) hanging.push(res);
      else void Promise.resolve(status).then((code) => res.writeHead(code).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    port,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
