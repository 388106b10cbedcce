/**
 * Live Kalshi when things go wrong, through the real `npm start` process (compiled, logs at trace
 * level captured) against the Kalshi fake: a blind private stream (dropped, then frozen) still
 * delivers a fill through the reconciler's REST sweep; a 429 storm slows orders down without
 * losing or duplicating one and without a 5xx; and the Kalshi private key never shows in the
 * run's logs, in any response, or in a `pg_dump` of the database.
 *
 * The process has a database of its own (the reconciler claims every live order it finds, the
 * catalog sync closes what the fake does not list).
 */
import { execFile } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { promisify } from 'node:util';
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import type { KalshiFake } from '../../fakes/kalshi/server';
import { call, type ApiResponse } from '../support/http';
import { v2OrderBody } from '../support/kalshiOrders';
import {
  attachKalshi,
  CREATE_PATH,
  encodings,
  eventually,
  FED,
  liveMarketId,
  liveSubaccount,
  MAKER,
  newKek,
  newLiveTrader,
  pemBodyLines,
  placeLive,
  startKalshiFake,
  type LiveTrader,
} from '../support/kalshiLive';
import { newKalshiKey } from '../support/kalshiKeys';
import { ownDatabase } from '../support/ownDatabase';
import { startProcess, type ServiceProcess } from '../support/processes';

const run = promisify(execFile);
const dave = newKalshiKey();

let fake: KalshiFake;
let databaseUrl: string;
let db: Db;
let service: ServiceProcess;
let trader: LiveTrader;
let fed: string;
let daveSub: string;
/** Every answer the service gave in this file, for the secrets check. */
const responses: ApiResponse[] = [];
const kept = <T extends ApiResponse>(response: T): T => {
  responses.push(response);
  return response;
};
const get = async (path: string) => kept(await call(trader.base, 'GET', path, { key: trader.live }));

beforeAll(async () => {
  fake = await startKalshiFake('production', [{ userId: 'user-dave', key: dave }]);
  databaseUrl = await ownDatabase('kalshi_live_faults');
  db = createPrismaClient(databaseUrl, 2);
  service = await startProcess('bin/start.ts', {
    PORT: '0',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'trace',
    CREDENTIALS_KEK: newKek(),
    KALSHI_PRODUCTION_URL: fake.baseUrl,
    KALSHI_PRODUCTION_WS_URL: fake.wsUrl,
    KALSHI_CATALOG_SYNC_MS: '10000', // the start-up sync runs at once
    KALSHI_TIMEOUT_MS: '1000',
    LIVE_RECONCILER_ENABLED: 'true',
    LIVE_RECONCILE_INTERVAL_MS: '200',
    LIVE_FILL_SWEEP_INTERVAL_MS: '200',
  });
  trader = await newLiveTrader(db, service.url);
  fed = await liveMarketId(db, FED);
  daveSub = await liveSubaccount(trader, 'dave', { key: dave, environment: 'production' });
}, 60_000);
afterAll(async () => {
  fake?.freezeWebSockets(false);
  await service?.stop();
  await fake?.close();
  await db?.$disconnect();
});

describe('live Kalshi under faults (npm start against the fake)', () => {
  it('with the private stream dropped and frozen (blind), a fill by another participant still arrives through the REST sweep', async () => {
    const ours = kept(await placeLive(trader, { subaccount_id: daveSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.45', quantity: '4' }));
    expect(ours.body).toMatchObject({ status: 'open' });
    await eventually('the account\u2019s stream', async () => (fake.openWebSockets > 0 ? true : undefined));
    // Frozen first, so the reconnect after the drop is never answered: no subscription, no frames.
    fake.freezeWebSockets(true);
    fake.dropWebSockets();
    expect(fake.placeOrderAs(MAKER, v2OrderBody(FED, { side: 'ask', price: '0.4500', count: '3.00' }))).toMatchObject({ status: 201 });
    const [fakeFill] = fake.exchange.listFills('user-dave', { orderId: ours.body.venue_order_id });
    const sweepsBefore = fake.requestsSignedBy(dave.keyId).filter((r) => r.path === '/trade-api/v2/portfolio/fills' && r.atMs >= fakeFill!.createdMs).length;

    const fills = await eventually('the swept fill in GET /v1/fills', async () => {
      const listed = (await get(`/v1/fills?order_id=${ours.body.id}`)).body.data;
      return listed.length > 0 ? listed : undefined;
    }, 10_000);
    expect(fills).toEqual([expect.objectContaining({ venue_fill_id: fakeFill!.fillId, price: '0.45', quantity: '3', fee: '0', is_taker: false })]);
    expect((await get(`/v1/orders/${ours.body.id}`)).body).toMatchObject({ status: 'partially_filled', filled_quantity: '3', remaining_quantity: '1' });
    // It came by the sweep (GET /portfolio/fills?min_ts=, after the fill), which says so in the logs.
    expect(fake.requestsSignedBy(dave.keyId).filter((r) => r.path === '/trade-api/v2/portfolio/fills' && r.atMs >= fakeFill!.createdMs).length).toBeGreaterThan(sweepsBefore);
    expect(service.output()).toContain('fill sweep recorded fills the stream had not delivered');
    fake.freezeWebSockets(false);
  });

  it('a 429 storm on the create path slows orders down: every order lands once, no client sees a 5xx', async () => {
    const creates = () => fake.requestsSignedBy(dave.keyId).filter((r) => r.method === 'POST' && r.path === CREATE_PATH);
    const before = creates().length;
    // Five bare 429s for eight concurrent creates: each refused create is sent again (same
    // client_order_id) after a backoff, behind the write bucket the 429 drained. Eight creates fit
    // in one KALSHI_TIMEOUT_MS of the basic tier's tokens, and no create can meet six 429s, so none
    // may fail (docs/kalshi.md: beyond those bounds the answer is 429 rate_limited, nothing sent; kalshiDeadline.test.ts).
    fake.injectFault({ fault: { kind: 'rate_limit' }, method: 'POST', pathPrefix: CREATE_PATH, times: 5 });
    const prices = ['0.11', '0.12', '0.13', '0.14', '0.15', '0.16', '0.17', '0.18'];
    const placed = await Promise.all(
      prices.map(async (price) => kept(await placeLive(trader, { subaccount_id: daveSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price, quantity: '1' }))),
    );
    expect(placed.map((p) => p.status)).toEqual(prices.map(() => 200));
    expect(placed.map((p) => p.body.status)).toEqual(prices.map(() => 'open'));
    const statuses = creates().slice(before).map((r) => r.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(statuses.filter((s) => s === 201)).toHaveLength(8);
    expect(statuses).toHaveLength(13);
    for (const order of placed) {
      expect(fake.exchange.allOrders().filter((o) => o.clientOrderId === order.body.id).map((o) => o.orderId)).toEqual([order.body.venue_order_id]);
    }
  });
});

describe('the Kalshi private key never leaks', () => {
  /** The PEM, each line of its base64 body, the body joined, and the key's DER in hex: in any encoding. */
  const secrets = () => {
    const der = createPrivateKey(dave.privateKeyPem).export({ type: 'pkcs8', format: 'der' });
    const body = pemBodyLines(dave.privateKeyPem);
    return [dave.privateKeyPem, body.join(''), der.toString('hex'), ...body].flatMap(encodings);
  };

  it('attaching again and reading the subaccount answer the fingerprint only', async () => {
    const again = kept(await attachKalshi(trader, daveSub, dave, 'production'));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ exchange: 'kalshi', environment: 'production', fingerprint: expect.stringMatching(new RegExp(`^sha256:[0-9a-f]{16} key_id=${dave.keyId}$`)) });
    const refused = kept(await call(trader.base, 'PUT', `/v1/subaccounts/${daveSub}/credentials/kalshi`, {
      key: trader.dashboard, headers: { 'x-environment': 'live' }, body: { key_id: 'not-a-uuid', private_key: dave.privateKeyPem, environment: 'production' },
    }));
    expect(refused.status).toBe(400);
    const read = await get(`/v1/subaccounts/${daveSub}`);
    expect(read.body.credentials).toEqual([expect.objectContaining({ exchange: 'kalshi', environment: 'production', fingerprint: again.body.fingerprint })]);
    await get('/v1/orders?limit=100');
    await get('/v1/portfolio');
  });

  it('no response of the run carries it', () => {
    const answered = responses.map((r) => JSON.stringify(r.body)).join('\n');
    expect(answered).toContain(dave.keyId); // the fingerprint names the key id, which is not secret
    for (const secret of secrets()) if (answered.includes(secret)) throw new Error('a response holds the Kalshi private key');
  });

  it('the run\u2019s logs (trace level) do not hold it, nor any signature header', () => {
    const logs = service.output();
    expect(logs.match(/"msg":"request"/g)?.length ?? 0).toBeGreaterThanOrEqual(10); // the access log is there to be searched
    expect(logs).toContain('"path":"/v1/orders"');
    for (const secret of secrets()) if (logs.includes(secret)) throw new Error('the logs hold the Kalshi private key');
    expect(logs.toLowerCase()).not.toContain('kalshi-access-signature');
  });

  it('a pg_dump of the database does not hold it', async () => {
    const { stdout: dump } = await run('/usr/bin/pg_dump', ['--data-only', '--no-password', `--dbname=${databaseUrl}`], { maxBuffer: 1024 * 1024 * 1024 });
    const fingerprint = (await db.exchangeCredential.findFirstOrThrow({ where: { subaccountId: daveSub } })).fingerprint;
    expect(dump).toContain(fingerprint); // the dump is of the database the service wrote
    for (const secret of secrets()) if (dump.includes(secret)) throw new Error('the database dump holds the Kalshi private key');
  });
});
