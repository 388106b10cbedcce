/**
 * What stands between us and Polymarket's CLOB V2 (core/venues/polymarket/session.ts and
 * marketData.ts) against a loopback HTTP server that answers as the pieces in front of the CLOB do:
 * a 408 or a 499 (a load balancer, nginx), an HTML error page (a CDN or proxy); the venue's own JSON
 * refusal (`{"error": ...}`, the official client's src/http-helpers/index.ts reads `error`); a
 * public `GET /book` (`OrderBookSummary`, src/types/clob.ts, github.com/Polymarket/clob-client-v2
 * at f3e1a05) whose levels come in no particular order.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PolymarketBooks } from '../../core/venues/polymarket/marketData';
import { PolymarketSession } from '../../core/venues/polymarket/session';

type Answer = { status: number; type: string; body: string };
let next: Answer;
let server: Server;
let session: PolymarketSession;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(next.status, { 'content-type': next.type }).end(next.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  session = new PolymarketSession({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, timeoutMs: 2000 });
});
afterAll(async () => {
  await session.close();
  await new Promise((resolve) => server.close(resolve));
});

const json = (status: number, body: unknown): Answer => ({ status, type: 'application/json', body: JSON.stringify(body) });
const html = (status: number): Answer => ({ status, type: 'text/html', body: '<!DOCTYPE html><html><body>403 Forbidden</body></html>' });
const post = () => session.request('POST', '/order', { auth: 'public', write: true, body: {} });
const read = () => session.request('GET', '/data/order/0x01', { auth: 'public' });

describe('the Polymarket session: whose 4xx it is', () => {
  it('a 408, a 499 or an HTML page on a write is unknown (the venue may have acted); on a read, unavailable', async () => {
    for (const answer of [json(408, { error: 'Request Timeout' }), { status: 499, type: 'text/plain', body: '' }, html(403), html(400)]) {
      next = answer;
      await expect(post()).resolves.toMatchObject({ kind: 'unknown', error: { code: 'venue_unavailable', message: expect.stringContaining(`answered ${answer.status}`) } });
      await expect(read()).resolves.toMatchObject({ kind: 'unavailable' });
    }
  });

  it("the venue's own JSON 4xx is a refusal; a 429 stays one even as an HTML page", async () => {
    next = json(400, { error: 'not enough balance / allowance' });
    await expect(post()).resolves.toMatchObject({ kind: 'refused', status: 400, refusal: { code: 'insufficient_funds' } });
    next = html(429);
    await expect(post()).resolves.toMatchObject({ kind: 'refused', status: 429 });
  });
});

describe('the Polymarket book: sorted by price', () => {
  it('levels in any order come back best first: bids highest first, asks lowest first', async () => {
    next = json(200, {
      market: '0xc0', asset_id: '1', timestamp: '1764000000000', hash: 'h',
      bids: [{ price: '0.40', size: '5' }, { price: '0.42', size: '10' }, { price: '0.38', size: '1' }],
      asks: [{ price: '0.47', size: '6' }, { price: '0.45', size: '7.5' }, { price: '0.5', size: '2' }],
      min_order_size: '5', tick_size: '0.01', neg_risk: false,
    });
    const books = new PolymarketBooks(session, { byVenueMarketId: async (id) => ({ venueMarketId: id, yesTokenId: '1', noTokenId: '2', negRisk: false, tickSize: '0.01', minSize: '5' }) });
    await expect(books.orderBook('0xc0', 2)).resolves.toEqual({
      venueMarketId: '0xc0',
      bids: [{ price: '0.42', quantity: '10' }, { price: '0.4', quantity: '5' }],
      asks: [{ price: '0.45', quantity: '7.5' }, { price: '0.47', quantity: '6' }],
      mid: '0.435',
    });
  });
});
