/**
 * Webhook receivers for the webhook suites: real HTTP servers on loopback that keep every request,
 * and the verification recipe of docs/webhooks.md written as a receiver would (not the core's code).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, ok } from './http';

export const TOLERANCE_SECONDS = 300;

/**
 * The documented recipe: true when `rawBody` was signed with `secret` less than 5 minutes ago by
 * any of the header's v1 signatures (after a rotation there are two: the new secret's and the previous one's).
 */
export function verifyWebhook(secret: string, signatureHeader: string | undefined, rawBody: string | Buffer, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const parts = String(signatureHeader ?? '').split(',').map((part) => part.trim().split('='));
  const t = parts.find(([name]) => name === 't')?.[1] ?? '';
  const signatures = parts.filter(([name, value]) => name === 'v1' && /^[0-9a-f]{64}$/.test(value ?? '')).map(([, value]) => Buffer.from(value!, 'hex'));
  if (!/^\d+$/.test(t) || signatures.length === 0) return false;
  if (Math.abs(nowSeconds - Number(t)) > TOLERANCE_SECONDS) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  return signatures.some((signature) => crypto.timingSafeEqual(expected, signature));
}

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
}

export type Receiver = Awaited<ReturnType<typeof receiver>>;

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

/** Deletes every webhook endpoint the key sees: after each test, so that later tests' events do not keep them busy. */
export async function deleteEveryEndpoint(base: string, key: string): Promise<void> {
  for (const endpoint of ok(await call(base, 'GET', '/v1/webhook_endpoints?limit=200', { key }), 'endpoints').data as { id: string }[]) {
    ok(await call(base, 'DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { key }), 'delete after the test');
  }
}
