/**
 * Our Kalshi request signer (core/venues/kalshi/signing.ts) against the faithful fake, which
 * verifies every signature with the public key registered for the key id, as Kalshi does.
 */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { createKalshiSigner, kalshiSignerFromCredential, type KalshiSigner } from '../../core/venues/kalshi/signing';
import { KalshiFake } from '../../fakes/kalshi/server';
import { v2OrderBody } from '../support/kalshiOrders';
import { newKalshiKey } from '../support/kalshiKeys';

/** Two subaccounts of ours, each with its own Kalshi API key and account. */
const first = newKalshiKey();
const second = newKalshiKey();

async function get(fake: KalshiFake, signer: KalshiSigner, pathAndQuery: string) {
  const url = new URL(`${fake.baseUrl}${pathAndQuery}`);
  const res = await fetch(url, { headers: { ...signer.request('GET', url) } });
  return { status: res.status, body: (await res.json()) as any };
}

describe('our Kalshi signer against the fake', () => {
  let fake: KalshiFake;
  beforeAll(async () => {
    fake = await KalshiFake.start({
      environment: 'demo',
      accounts: [
        { userId: 'user-first', balanceDollars: '1000.00', keys: [first] },
        { userId: 'user-second', balanceDollars: '250.00', keys: [second] },
      ],
    });
  });
  afterAll(() => fake.close());

  it("signs requests the fake accepts as this key's, each account seeing its own balance", async () => {
    const firstReply = await get(fake, createKalshiSigner(first.keyId, first.privateKey), '/portfolio/balance');
    const secondReply = await get(fake, createKalshiSigner(second.keyId, second.privateKey), '/portfolio/balance');
    expect(firstReply).toMatchObject({ status: 200, body: { balance_dollars: '1000.0000' } });
    expect(secondReply).toMatchObject({ status: 200, body: { balance_dollars: '250.0000' } });
    expect(fake.requestsSignedBy(first.keyId)).toContainEqual(
      expect.objectContaining({ method: 'GET', path: '/trade-api/v2/portfolio/balance', keyId: first.keyId, claimedKeyId: first.keyId, status: 200 }),
    );
  });

  it('signs a V2 order write the fake accepts', async () => {
    const signer = kalshiSignerFromCredential({ key_id: first.keyId, private_key: first.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string });
    const url = new URL(`${fake.baseUrl}/portfolio/events/orders`);
    const market = (await (await fetch(`${fake.baseUrl}/markets?status=open&limit=1`)).json()) as { markets: { ticker: string }[] };
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signer.request('POST', url) },
      body: JSON.stringify(v2OrderBody(market.markets[0]!.ticker, { count: '1.00', price: '0.0100', client_order_id: randomUUID() })),
    });
    expect(res.status).toBe(201);
    const cancelUrl = new URL(`${fake.baseUrl}/portfolio/events/orders/${((await res.json()) as { order_id: string }).order_id}`);
    expect((await fetch(cancelUrl, { method: 'DELETE', headers: { ...signer.request('DELETE', cancelUrl) } })).status).toBe(200);
  });

  it('leaves the query string out of the signature, so a GET with a query passes', async () => {
    const reply = await get(fake, createKalshiSigner(first.keyId, first.privateKey), '/portfolio/orders?status=resting&limit=5');
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveProperty('orders');
  });

  it("a request for one key id signed with another subaccount's key fails the fake's check for that key id", async () => {
    // A signer that claims the first key id but holds the second subaccount's private key.
    const crossed = createKalshiSigner(first.keyId, second.privateKey);
    const reply = await get(fake, crossed, '/portfolio/balance');
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ error: { code: 'authentication_error', message: 'authentication_error', details: 'INCORRECT_API_KEY_SIGNATURE' } });
    const recorded = fake.requests.filter((r) => r.claimedKeyId === first.keyId && r.status === 401);
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.every((r) => r.keyId !== first.keyId)).toBe(true);
  });

  it('sends milliseconds: a timestamp the fake checks against its own clock', async () => {
    const skewed = (offsetMs: number) => createKalshiSigner(first.keyId, first.privateKey, () => Date.now() + offsetMs);
    expect((await get(fake, skewed(0), '/portfolio/balance')).status).toBe(200);
    // Half a minute late is stale to Kalshi; a signer that sent seconds would always be.
    const stale = await get(fake, skewed(-30_000), '/portfolio/balance');
    expect(stale).toEqual({ status: 401, body: { error: { code: 'header_timestamp_expired', message: 'header timestamp expired' } } });
  });

  it('signs a WebSocket handshake the fake upgrades, and another key cannot open it for this key id', async () => {
    const ws = new WebSocket(fake.wsUrl, { headers: { ...createKalshiSigner(second.keyId, second.privateKey).webSocket() } });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
    });
    ws.close();
    const crossed = new WebSocket(fake.wsUrl, { headers: { ...createKalshiSigner(second.keyId, first.privateKey).webSocket() } });
    const status = await new Promise<number>((resolve, reject) => {
      crossed.once('open', () => reject(new Error('a crossed signature opened a socket')));
      crossed.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    });
    expect(status).toBe(401);
  });
});
