/**
 * Traders and requests against the Polymarket fake as the official client makes them: orders signed
 * by OUR signing layer (core/venues/polymarket/signing.ts, i.e. @polymarket/clob-client-v2's
 * OrderBuilder), L2 headers by the client's createL2Headers over method + bare path + exact body,
 * and the user channel through a real `ws` client.
 */
import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import WebSocket from 'ws';
import {
  Chain,
  OrderType,
  polymarketOrderPayload,
  polymarketSigning,
  SignatureTypeV2,
  type PolymarketLimitOrder,
  type PolymarketSigning,
} from '../../core/venues/polymarket/signing';
import type { FakeAccount } from '../../fakes/polymarket/exchange';
import { defaultTokens } from '../../fakes/polymarket/markets';
import type { PolymarketFake } from '../../fakes/polymarket/server';

// Publicly known development keys (Hardhat/Anvil accounts 0, 1 and 2): never funded on a real chain.
export const DEV_KEYS = {
  alice: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  bob: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  carol: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
} as const;

export const [FED_YES, FED_NO, ELECTION_YES] = defaultTokens() as [ReturnType<typeof defaultTokens>[number], ReturnType<typeof defaultTokens>[number], ReturnType<typeof defaultTokens>[number]];

export interface Trader {
  readonly signing: PolymarketSigning;
  readonly creds: { key: string; secret: string; passphrase: string };
  readonly account: FakeAccount;
}

/** An EOA trader: for EOA the funder is the signer itself. */
export function trader(name: string, privateKey: `0x${string}`): Trader {
  const address = privateKeyToAccount(privateKey).address;
  const signing = polymarketSigning({ chain: Chain.AMOY, signatureType: SignatureTypeV2.EOA, funderAddress: address, privateKey });
  const creds = { key: `${name}-0000-4000-8000-000000000000`, secret: randomBytes(32).toString('base64url'), passphrase: randomBytes(32).toString('hex') };
  return {
    signing,
    creds,
    account: { apiKey: creds.key, secret: creds.secret, passphrase: creds.passphrase, ownerAddress: signing.signerAddress, signatureType: 0, funderAddress: signing.signerAddress },
  };
}

export interface Reply {
  readonly status: number;
  readonly body: any;
  /** Not enumerable: a reply compares equal to `{status, body}`; the headers are there to read. */
  readonly headers: Headers;
}

async function replyOf(response: Response): Promise<Reply> {
  return Object.defineProperty({ status: response.status, body: await response.json() }, 'headers', { value: response.headers, enumerable: false }) as Reply;
}

/**
 * A request as the official client makes it: L2 headers over method + bare path + exact body when
 * `who` is given. `tweak` signs something else than what is sent (another time, body or creds), to
 * show what the fake refuses.
 */
export async function call(
  fake: PolymarketFake,
  who: Trader | null,
  method: string,
  pathAndQuery: string,
  body?: unknown,
  tweak: { timestampSeconds?: number; signBody?: string; creds?: Trader['creds'] } = {},
): Promise<Reply> {
  const requestPath = pathAndQuery.split('?')[0]!;
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signedBody = tweak.signBody ?? text;
  if (who !== null) Object.assign(headers, await who.signing.l2Headers(tweak.creds ?? who.creds, { method, requestPath, ...(signedBody ? { body: signedBody } : {}) }, tweak.timestampSeconds));
  const response = await fetch(`${fake.baseUrl}${pathAndQuery}`, { method, headers, ...(text === undefined ? {} : { body: text }) });
  return replyOf(response);
}

/** A control-API call (no auth). */
export async function control(fake: PolymarketFake, method: string, path: string, body?: unknown): Promise<Reply> {
  const response = await fetch(`${fake.baseUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return replyOf(response);
}

export const limit = (over: Partial<PolymarketLimitOrder> = {}): PolymarketLimitOrder => ({ tokenId: FED_YES.tokenId, price: '0.56', size: '10', side: 'BUY', tickSize: '0.01', negRisk: false, ...over });

export async function signedPayload(who: Trader, order: PolymarketLimitOrder, orderType: OrderType = OrderType.GTC) {
  return polymarketOrderPayload(await who.signing.signLimitOrder(order), who.creds.key, orderType);
}

/** Places a signed GTC limit order; the venue's answer. */
export async function place(fake: PolymarketFake, who: Trader, order: Partial<PolymarketLimitOrder> = {}): Promise<Reply> {
  return call(fake, who, 'POST', '/order', await signedPayload(who, limit(order)));
}

/**
 * A user-channel socket that keeps every text frame in arrival order; `next()` takes the next one
 * (waiting for it, up to `timeoutMs`). Frames are JSON objects except the keepalive's `PONG`.
 */
export class UserSocket {
  readonly frames: string[] = [];
  private waiter: (() => void) | null = null;
  closed: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on('error', () => undefined); // a dropped socket shows as its close code
    ws.on('message', (data) => {
      this.frames.push(data.toString());
      this.waiter?.();
    });
    this.closed = new Promise((resolve) => ws.once('close', (code) => resolve(code)));
  }

  static async open(url: string): Promise<UserSocket> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
      ws.once('error', reject);
    });
    return new UserSocket(ws);
  }

  /** Opens and sends the venue's subscription: `{auth, markets, type: "user"}`. */
  static async subscribe(fake: PolymarketFake, who: Trader, markets: string[] = [], creds = who.creds): Promise<UserSocket> {
    const socket = await UserSocket.open(fake.userChannelUrl);
    socket.ws.send(JSON.stringify({ auth: { apiKey: creds.key, secret: creds.secret, passphrase: creds.passphrase }, markets, type: 'user' }));
    // The venue sends no acknowledgment; a PING answered proves the subscription was read and kept.
    const answer = await socket.ping();
    if (answer !== 'PONG') throw new Error(`subscription answered ${answer}`);
    return socket;
  }

  async next(timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no frame arrived');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
    return this.frames.shift()!;
  }

  async nextJson(timeoutMs?: number): Promise<any> {
    const frame = await this.next(timeoutMs);
    return JSON.parse(frame);
  }

  /** Sends the text keepalive and returns the next frame (the PONG when nothing else was queued). */
  async ping(): Promise<string> {
    this.ws.send('PING');
    return this.next();
  }

  close(): void {
    this.ws.terminate();
  }
}
