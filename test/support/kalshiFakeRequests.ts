import { createKalshiSigner } from '../../core/venues/kalshi/signing';
import type { KalshiFake } from '../../fakes/kalshi/server';
import type { KalshiKey } from './kalshiKeys';

/** An answer of the fake: its status and parsed JSON body. */
export interface Reply {
  readonly status: number;
  readonly body: any;
}

/**
 * Raw requests to a Kalshi fake, as a client of Kalshi's REST API sends them: `call` signs with the
 * key (over the path without its query, as Kalshi signs) or sends unsigned (`null`); `control`
 * posts to the fake's control API. `fakeOf` answers the suite's current fake.
 */
export function kalshiFakeRequests(fakeOf: () => KalshiFake) {
  return {
    async call(key: KalshiKey | null, method: string, pathAndQuery: string, body?: unknown): Promise<Reply> {
      const fullPath = `/trade-api/v2${pathAndQuery}`;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (key !== null) Object.assign(headers, createKalshiSigner(key.keyId, key.privateKey).request(method, fullPath.split('?')[0]!));
      const res = await fetch(`${fakeOf().origin}${fullPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
    },
    async control(route: string, body: unknown = {}): Promise<Reply> {
      const res = await fetch(`${fakeOf().origin}/_fake${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    },
  };
}

/** Polls `probe` (every 10 ms) until it answers something, or fails after `timeoutMs`. */
export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
