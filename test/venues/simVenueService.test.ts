/**
 * The simulated venues over HTTP (core/venues/sim/remote/): the service's listener on a real
 * loopback server, and the cores' adapter speaking `Venue` to it. Two adapters stand for two cores:
 * they trade on one book. What the network does to a call maps onto the results the core handles:
 * `not_sent` when nothing left, `unknown` when an answer was lost or unreadable, `venue_unavailable`
 * when the service turned the call away or a read failed; never a thrown surprise.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '../../core/domain/errors';
import { simulatedListings } from '../../core/venues/sim/seededCatalog';
import { createLogger } from '../../core/support/logger';
import { createSimVenues, SimVenueError } from '../../core/venues/sim';
import { SimVenueService } from '../../core/venues/sim/remote/client';
import { INSTANCE_HEADER } from '../../core/venues/sim/remote/protocol';
import { simVenueListener } from '../../core/venues/sim/remote/server';
import { SIM_SEED } from '../../core/venues/registry';
import type { VenueOrderRequest } from '../../core/venues/venue';
import { closedPort } from '../support/http';

const TOKEN = 'sim-venue-test-token-0123456789abcdef';
const servers: http.Server[] = [];
const clients: SimVenueService[] = [];

async function listen(listener: http.RequestListener): Promise<string> {
  const server = http.createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function simService() {
  const { listener, instance } = simVenueListener(createSimVenues(simulatedListings(), { seed: SIM_SEED }), { token: TOKEN, logger: createLogger('silent', 'test') });
  return { url: await listen(listener), instance };
}

function client(url: string, options: { token?: string; timeoutMs?: number } = {}) {
  const service = new SimVenueService({ url, token: options.token ?? TOKEN, timeoutMs: options.timeoutMs ?? 2000 });
  clients.push(service);
  return service;
}

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const order = (overrides: Partial<VenueOrderRequest>): VenueOrderRequest => ({
  clientOrderId: `ord_${Math.random().toString(36).slice(2)}`,
  venueMarketId: 'CPI-ABOVE-3',
  side: 'yes',
  action: 'buy',
  type: 'limit',
  price: '0.41',
  quantity: '10',
  timeInForce: 'gtc',
  ...overrides,
});

describe('two cores on one service', () => {
  it('serves the books a core builds in its own memory, and two adapters trade on one of them', async () => {
    const { url, instance } = await simService();
    const a = client(url).venue('sim-kalshi');
    const b = client(url).venue('sim-kalshi');
    const inProcess = createSimVenues(simulatedListings(), { seed: SIM_SEED }).get('sim-kalshi')!;
    // The same levels (each venue's asOf is its own listing time, carried over the service as a Date).
    const { asOf: servedAsOf, ...served } = await a.orderBook('CPI-ABOVE-3');
    const { asOf: _ownAsOf, ...own } = await inProcess.orderBook('CPI-ABOVE-3');
    expect(served).toEqual(own);
    expect(servedAsOf).toBeInstanceOf(Date);

    // Fair 0.41: the market maker's best bid 0.40 and best ask 0.42. A sell resting at 0.41 (inside
    // the spread) through A, then a buy of 25 at 0.41 through B: they match.
    const sell = order({ action: 'sell', price: '0.41', quantity: '10' });
    const resting = await a.placeOrder(sell);
    expect(resting).toMatchObject({ outcome: 'accepted', order: { status: 'open', remainingQuantity: '10' }, fills: [] });
    const buy = order({ price: '0.41', quantity: '25' });
    const taken = await b.placeOrder(buy);
    expect(taken).toMatchObject({
      outcome: 'accepted',
      order: { status: 'open', filledQuantity: '10', remainingQuantity: '15' },
      fills: [{ clientOrderId: buy.clientOrderId, price: '0.4100', quantity: '10', isTaker: true }],
    });

    // The maker's fill reaches A through listFills; its order is filled as both see it.
    const fills = await a.listFills();
    expect(fills.filter((f) => f.clientOrderId === sell.clientOrderId)).toEqual([
      expect.objectContaining({ price: '0.4100', quantity: '10', isTaker: false }),
    ]);
    expect(await a.getOrder(sell.clientOrderId)).toEqual(await b.getOrder(sell.clientOrderId));
    expect(await b.getOrder(sell.clientOrderId)).toMatchObject({ status: 'filled', filledQuantity: '10' });

    // Paging: one fill at a time after a given id gives the same list.
    const paged = [];
    for (let after: string | undefined; ; ) {
      const page = await b.listFills({ ...(after ? { afterVenueFillId: after } : {}), limit: 1 });
      if (page.length === 0) break;
      paged.push(...page);
      after = page[0]!.venueFillId;
    }
    expect(paged).toEqual(fills);

    // A second buy behind the rest of the first: the same queue position through either adapter.
    const behind = order({ price: '0.41', quantity: '3' });
    await a.placeOrder(behind);
    expect(await a.queuePosition(behind.clientOrderId)).toEqual({ venueOrderId: `sim-kalshi-order-${behind.clientOrderId}`, ordersAhead: 1, quantityAhead: '15' });
    expect(await b.queuePosition(behind.clientOrderId)).toEqual(await a.queuePosition(behind.clientOrderId));

    // Placing again with the same client order id answers the order as it is; cancel is idempotent too.
    expect(await b.placeOrder(behind)).toMatchObject({ outcome: 'accepted', order: { status: 'open', remainingQuantity: '3' } });
    expect(await b.cancelOrder(behind.clientOrderId)).toMatchObject({ outcome: 'canceled', order: { status: 'canceled' } });
    expect(await a.cancelOrder(behind.clientOrderId)).toMatchObject({ outcome: 'canceled' });
    expect(await a.queuePosition(behind.clientOrderId)).toBeNull();

    // The venue's own refusals keep their shape across the wire.
    expect(await a.placeOrder(order({ price: '0.415' }))).toMatchObject({ outcome: 'rejected', code: 'invalid_request', venueCode: 'invalid_order' });
    expect(await a.cancelOrder('ord_nobody')).toMatchObject({ outcome: 'rejected', code: 'order_not_found' });
    await expect(a.orderBook('NO-SUCH-MARKET')).rejects.toMatchObject({ constructor: SimVenueError, code: 'market_not_tradable' });
    expect(client(url).instance).toBeUndefined();
    expect(clients[0]!.instance).toBe(instance);
  });

  it('restores resting orders idempotently: a second restore, from another core, changes nothing', async () => {
    const { url } = await simService();
    const a = client(url).venue('sim-polymarket');
    const b = client(url).venue('sim-polymarket');
    const resting = [
      { clientOrderId: 'ord_r1', venueMarketId: 'pm-cpi-above-3', side: 'yes' as const, action: 'buy' as const, price: '0.4', remainingQuantity: '7', filledQuantity: '3' },
      { clientOrderId: 'ord_r2', venueMarketId: 'pm-cpi-above-3', side: 'yes' as const, action: 'buy' as const, price: '0.4', remainingQuantity: '5' },
    ];
    const first = await a.restoreRestingOrders(resting);
    expect(first.map((o) => [o.clientOrderId, o.status, o.filledQuantity, o.remainingQuantity])).toEqual([
      ['ord_r1', 'open', '3.00', '7.00'],
      ['ord_r2', 'open', '0.00', '5.00'],
    ]);
    const book = await a.orderBook('pm-cpi-above-3');
    expect(await b.restoreRestingOrders(resting)).toEqual(first);
    expect(await b.orderBook('pm-cpi-above-3')).toEqual(book);
    expect(await b.queuePosition('ord_r2')).toMatchObject({ ordersAhead: 1, quantityAhead: '7.00' });
  });
});

describe('failures map onto the venue results the core handles', () => {
  it('a wrong secret: the service refuses before acting (401), the order is rejected venue_unavailable, a read is a venue_unavailable DomainError', async () => {
    const { url } = await simService();
    const wrong = client(url, { token: 'x'.repeat(40) }).venue('sim-kalshi');
    const request = order({});
    expect(await wrong.placeOrder(request)).toMatchObject({ outcome: 'rejected', code: 'venue_unavailable', message: expect.stringContaining('401') });
    expect(await wrong.cancelOrder(request.clientOrderId)).toMatchObject({ outcome: 'rejected', code: 'venue_unavailable' });
    await expect(wrong.getOrder(request.clientOrderId)).rejects.toMatchObject({ constructor: DomainError, code: 'venue_unavailable', status: 503 });
    // Nothing was placed.
    expect(await client(url).venue('sim-kalshi').getOrder(request.clientOrderId)).toBeNull();
  });

  it('a service that cannot be reached: the order was not sent; reads are venue_unavailable', async () => {
    const venue = client(`http://127.0.0.1:${await closedPort()}`).venue('sim-kalshi');
    expect(await venue.placeOrder(order({}))).toMatchObject({ outcome: 'not_sent', reason: 'unreachable' });
    expect(await venue.cancelOrder('ord_x')).toMatchObject({ outcome: 'rejected', code: 'venue_unavailable' });
    for (const read of [venue.orderBook('CPI-ABOVE-3'), venue.listFills(), venue.getOrder('ord_x'), venue.queuePosition('ord_x')]) {
      await expect(read).rejects.toMatchObject({ constructor: DomainError, code: 'venue_unavailable' });
    }
  });

  it('a service that does not answer in time: a write is unknown (it may have acted), a read venue_unavailable; no time left means not sent', async () => {
    let received = 0;
    const url = await listen(() => {
      received += 1; // holds every request, answering nothing
    });
    const venue = client(url, { timeoutMs: 200 }).venue('sim-kalshi');
    expect(await venue.placeOrder(order({}))).toMatchObject({ outcome: 'unknown', message: expect.stringContaining('did not answer in time') });
    expect(await venue.cancelOrder('ord_x')).toMatchObject({ outcome: 'unknown' });
    await expect(venue.queuePosition('ord_x')).rejects.toMatchObject({ code: 'venue_unavailable' });
    const before = received;
    expect(await venue.placeOrder(order({}), { deadline: Date.now() + 10 })).toMatchObject({ outcome: 'not_sent', reason: 'unreachable' });
    expect(await venue.cancelOrder('ord_x', { deadline: Date.now() - 1 })).toMatchObject({ outcome: 'rejected', code: 'venue_unavailable' });
    expect(received).toBe(before);
  });

  it.each([
    ['a 200 of the wrong shape', 200, JSON.stringify({ result: { outcome: 'maybe' } })],
    ['a 200 that is not JSON', 200, '<html>'],
    ['a 500', 500, JSON.stringify({ error: { code: 'venue_error', message: 'boom' } })],
    ['a 502 from a proxy', 502, 'Bad Gateway'],
  ])('%s: a write is unknown, a read venue_unavailable', async (_what, status, body) => {
    const url = await listen((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', [INSTANCE_HEADER]: 'x' });
      res.end(body);
    });
    const venue = client(url).venue('sim-polymarket');
    expect(await venue.placeOrder(order({}))).toMatchObject({ outcome: 'unknown' });
    expect(await venue.cancelOrder('ord_x')).toMatchObject({ outcome: 'unknown' });
    await expect(venue.orderBook('pm-cpi-above-3')).rejects.toMatchObject({ constructor: DomainError, code: 'venue_unavailable' });
  });
});

describe('the service refuses malformed calls in its error envelope', () => {
  const post = (url: string, path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, ...headers } });

  it.each([
    ['no secret', '/venue/sim-kalshi/getOrder', '{"clientOrderId":"a"}', { authorization: '' }, 401, 'unauthorized'],
    ['an unknown venue', '/venue/nasdaq/getOrder', '{"clientOrderId":"a"}', {}, 404, 'not_found'],
    ['an unknown method', '/venue/sim-kalshi/settle', '{}', {}, 404, 'not_found'],
    ['a body that is not JSON', '/venue/sim-kalshi/getOrder', '{', {}, 400, 'invalid_json'],
    ['a body of the wrong shape', '/venue/sim-kalshi/listFills', '{"limit":0}', {}, 400, 'invalid_request'],
    ['an unknown field', '/venue/sim-kalshi/getOrder', '{"clientOrderId":"a","x":1}', {}, 400, 'invalid_request'],
    ['a restore price that is not a decimal', '/venue/sim-kalshi/restoreRestingOrders', '{"orders":[{"clientOrderId":"a","venueMarketId":"CPI-ABOVE-3","side":"yes","action":"buy","price":"1e-1","remainingQuantity":"1"}]}', {}, 400, 'invalid_request'],
    ['not JSON at all', '/venue/sim-kalshi/getOrder', '{}', { 'content-type': 'text/plain' }, 415, 'unsupported_media_type'],
  ])('%s: %s', async (_what, path, body, headers, status, code) => {
    const { url } = await simService();
    const response = await post(url, path, body, headers);
    expect(response.status).toBe(status);
    const answer = (await response.json()) as { error: { code: string; message: string } };
    expect(answer.error.code).toBe(code);
    expect(answer.error.message).not.toMatch(/\n\s+at /);
  });
});
