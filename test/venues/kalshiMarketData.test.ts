/**
 * Kalshi's public market data (core/venues/kalshi/marketData.ts) against the faithful fake over
 * loopback: the order book (bids only, best last) turned into our YES book with worked figures,
 * `GET /markets` paged by cursor, series and events, unsigned calls, and every failure (timeout,
 * 5xx, unreachable, unknown market) as a DomainError keeping Kalshi's code where it sent one.
 */
import { KalshiMarketData, kalshiMarketDataFor, type KalshiListedMarket } from '../../core/venues/kalshi/marketData';
import { KALSHI_RATE_TIERS } from '../../core/venues/kalshi/tokenBuckets';
import { loadConfig } from '../../core/config';
import type { CatalogSeed, MarketSeed } from '../../fakes/kalshi/markets';
import { KalshiFake } from '../../fakes/kalshi/server';
import { v2OrderBody } from '../support/kalshiOrders';
import { closedPort } from '../support/http';

const TAPERED = [
  { start: '0.0000', end: '0.1000', step: '0.0010' },
  { start: '0.1000', end: '0.9000', step: '0.0100' },
  { start: '0.9000', end: '1.0000', step: '0.0010' },
];
const HIGH = 'KXMDHIGH-26DEC31-T40';
const FED = 'KXMDFED-26DEC-T4.00';

function market(ticker: string, overrides: Partial<MarketSeed> = {}): MarketSeed {
  return { ticker, event_ticker: 'KXMDFED-26DEC', series_ticker: 'KXMDFED', title: `Market ${ticker}`, close_time: '2026-12-16T19:00:00Z', ...overrides };
}

const CATALOG: CatalogSeed = {
  series: [
    { ticker: 'KXMDFED', title: 'Fed (fake)', category: 'Economics', fee_type: 'quadratic', fee_multiplier: '1' },
    { ticker: 'KXMDHIGH', title: 'High temperature (fake)', category: 'Climate', fee_type: 'quadratic_with_maker_fees', fee_multiplier: '0.5' },
  ],
  markets: [
    market(FED, { rules_primary: 'Resolves YES if the upper bound is above 4.00%.' }),
    market(HIGH, {
      event_ticker: 'KXMDHIGH-26DEC31',
      series_ticker: 'KXMDHIGH',
      price_ranges: TAPERED,
      price_level_structure: 'tapered_deci_cent',
      fractional_trading_enabled: true,
      yes_sub_title: 'Above 40°F',
    }),
    market('KXMDFED-26DEC-T4.25'),
    market('KXMDFED-26DEC-T4.50', { status: 'finalized' }),
    market('KXMDFED-26DEC-T4.75'),
    market('KXMDFED-26DEC-T5.00', { status: 'inactive' }),
    market('KXMDFED-26DEC-T5.25'),
  ],
};

const fakes: KalshiFake[] = [];
const clients: KalshiMarketData[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function startFake(): Promise<KalshiFake> {
  const fake = await KalshiFake.start({ catalog: CATALOG, accounts: [{ userId: 'maker', balanceDollars: '100000.00' }] });
  fakes.push(fake);
  return fake;
}

function client(restUrl: string, timeoutMs = 2000): KalshiMarketData {
  const made = new KalshiMarketData({ restUrl, timeoutMs, tier: KALSHI_RATE_TIERS.basic, backoff: { baseMs: 10, maxMs: 40, maxAttempts: 3 } });
  clients.push(made);
  return made;
}

/** Another participant's resting order: `side` bid buys YES at `price`, ask sells YES (buys NO at 1 − price). */
function rest(fake: KalshiFake, ticker: string, side: 'bid' | 'ask', price: string, count: string): void {
  const answer = fake.placeOrderAs('maker', v2OrderBody(ticker, { side, price, count }));
  expect(answer.status).toBe(201);
}

async function rawBook(fake: KalshiFake, ticker: string): Promise<unknown> {
  return (await fetch(`${fake.baseUrl}/markets/${ticker}/orderbook`)).json();
}

async function all(pages: AsyncIterable<KalshiListedMarket[]>): Promise<KalshiListedMarket[][]> {
  const out: KalshiListedMarket[][] = [];
  for await (const page of pages) out.push(page);
  return out;
}

describe('the order book: Kalshi lists bids only, best last; we show a YES book, best first', () => {
  it('YES bids become our bids; a NO bid at p becomes a YES ask at 1 − p; counts keep two decimals; mid as the simulated venues', async () => {
    const fake = await startFake();
    rest(fake, HIGH, 'bid', '0.4200', '10.00');
    rest(fake, HIGH, 'bid', '0.4000', '5.50');
    rest(fake, HIGH, 'bid', '0.0350', '3.00');
    rest(fake, HIGH, 'ask', '0.4500', '7.00');
    rest(fake, HIGH, 'ask', '0.4700', '2.00');
    rest(fake, HIGH, 'ask', '0.9650', '1.00');

    // What Kalshi (the fake) sends: both legs' bids, worst first.
    expect(await rawBook(fake, HIGH)).toEqual({
      orderbook_fp: {
        yes_dollars: [['0.0350', '3.00'], ['0.4000', '5.50'], ['0.4200', '10.00']],
        no_dollars: [['0.0350', '1.00'], ['0.5300', '2.00'], ['0.5500', '7.00']],
      },
    });
    // What we make of it: NO 0.5500 -> ask 1 - 0.55 = 0.4500 (best), NO 0.0350 -> ask 0.9650 (worst);
    // mid = (0.4200 + 0.4500) / 2 = 0.4350.
    await expect(client(fake.baseUrl).orderBook(HIGH)).resolves.toEqual({
      venueMarketId: HIGH,
      bids: [
        { price: '0.4200', quantity: '10.00' },
        { price: '0.4000', quantity: '5.50' },
        { price: '0.0350', quantity: '3.00' },
      ],
      asks: [
        { price: '0.4500', quantity: '7.00' },
        { price: '0.4700', quantity: '2.00' },
        { price: '0.9650', quantity: '1.00' },
      ],
      mid: '0.4350',
    });
  });

  it('depth limits each side and is sent to Kalshi; an empty side gives no mid; the calls are unsigned', async () => {
    const fake = await startFake();
    rest(fake, FED, 'bid', '0.3100', '4.00');
    rest(fake, FED, 'bid', '0.3000', '6.00');
    rest(fake, FED, 'bid', '0.2900', '8.00');
    const data = client(fake.baseUrl);
    await expect(data.orderBook(FED, 2)).resolves.toEqual({
      venueMarketId: FED,
      bids: [
        { price: '0.3100', quantity: '4.00' },
        { price: '0.3000', quantity: '6.00' },
      ],
      asks: [],
      mid: null,
    });
    await expect(data.orderBook('KXMDFED-26DEC-T4.25')).resolves.toEqual({ venueMarketId: 'KXMDFED-26DEC-T4.25', bids: [], asks: [], mid: null });
    await expect(data.orderBook(FED, 0)).rejects.toMatchObject({ code: 'invalid_request', param: 'depth' });
    const calls = fake.requests.filter((r) => r.path.endsWith('/orderbook'));
    expect(calls.map((r) => [r.path, r.query])).toEqual([
      [`/trade-api/v2/markets/${FED}/orderbook`, '?depth=2'],
      ['/trade-api/v2/markets/KXMDFED-26DEC-T4.25/orderbook', '?depth=10'],
    ]);
    expect(fake.requests.every((r) => r.keyId === null && r.claimedKeyId === null)).toBe(true);
  });

  it('a market Kalshi does not know is not tradable, with Kalshi\'s code in the message', async () => {
    const fake = await startFake();
    await expect(client(fake.baseUrl).orderBook('KXNOPE-1')).rejects.toMatchObject({
      code: 'market_not_tradable',
      message: "Kalshi has no market 'KXNOPE-1' (code 'not_found').",
    });
  });
});

describe('GET /markets, page by page', () => {
  it('follows the cursor over several pages until Kalshi answers an empty one, and filters by status', async () => {
    const fake = await startFake();
    const pages = await all(client(fake.baseUrl).markets({ status: 'open', limit: 2 }));
    // Seven markets, five active (T4.50 is finalized, T5.00 inactive): pages of 2, 2, 1.
    expect(pages.map((page) => page.map((m) => m.ticker))).toEqual([
      [FED, HIGH],
      ['KXMDFED-26DEC-T4.25', 'KXMDFED-26DEC-T4.75'],
      ['KXMDFED-26DEC-T5.25'],
    ]);
    const listing = fake.requests.filter((r) => r.path === '/trade-api/v2/markets');
    expect(listing).toHaveLength(3);
    expect(listing[0]!.query).toBe('?status=open&mve_filter=exclude&limit=2');
    expect(listing[1]!.query).toMatch(/^\?status=open&mve_filter=exclude&limit=2&cursor=[^&]+$/);
    expect(listing[2]!.query).not.toBe(listing[1]!.query);
  });

  it('reads each market into our terms, price ranges exactly as Kalshi wrote them', async () => {
    const fake = await startFake();
    const [page] = await all(client(fake.baseUrl).markets({ tickers: [HIGH, 'KXMDFED-26DEC-T4.50'] }));
    expect(page).toEqual([
      {
        ticker: HIGH,
        eventTicker: 'KXMDHIGH-26DEC31',
        seriesTicker: null, // Kalshi's market does not carry it: the event says
        title: `Market ${HIGH}`,
        subtitle: 'Above 40°F',
        rulesPrimary: '',
        status: 'active',
        closeTime: new Date('2026-12-16T19:00:00Z'),
        priceRanges: TAPERED,
        fractionalTrading: true,
        volume: '0', // volume_fp "0.00": nothing traded yet
      },
      expect.objectContaining({ ticker: 'KXMDFED-26DEC-T4.50', status: 'finalized', priceRanges: [{ start: '0.0000', end: '1.0000', step: '0.0100' }], fractionalTrading: false }),
    ]);
    const query = fake.requests.find((r) => r.path === '/trade-api/v2/markets')!.query;
    expect(new URLSearchParams(query).get('tickers')).toBe(`${HIGH},KXMDFED-26DEC-T4.50`);
  });

  it('series carry the fee schedule (the multiplier read as a decimal string), events their series; unknown ones are null', async () => {
    const fake = await startFake();
    const data = client(fake.baseUrl);
    await expect(data.series('KXMDHIGH')).resolves.toEqual({ ticker: 'KXMDHIGH', category: 'Climate', feeType: 'quadratic_with_maker_fees', feeMultiplier: '0.5' });
    await expect(data.series('KXMDFED')).resolves.toEqual({ ticker: 'KXMDFED', category: 'Economics', feeType: 'quadratic', feeMultiplier: '1' });
    await expect(data.series('KXNOPE')).resolves.toBeNull();
    // The fake's event: its series' category, its first market's title (no event title seeded).
    await expect(data.event('KXMDHIGH-26DEC31')).resolves.toEqual({ eventTicker: 'KXMDHIGH-26DEC31', seriesTicker: 'KXMDHIGH', category: 'Climate', title: `Market ${HIGH}` });
    const listed = [];
    for await (const page of data.openEvents()) listed.push(...page);
    expect(listed.map((e) => e.eventTicker).sort()).toEqual(['KXMDFED-26DEC', 'KXMDHIGH-26DEC31']);
    await expect(data.event('KXNOPE-1')).resolves.toBeNull();
  });
});

describe('failures are venue_unavailable, never a hang', () => {
  it('a listing that does not answer within the timeout', async () => {
    const fake = await startFake();
    fake.injectFault({ fault: { kind: 'delay', ms: 800, placeBeforeDelay: false }, pathPrefix: '/trade-api/v2/markets' });
    await expect(all(client(fake.baseUrl, 200).markets({ status: 'open' }))).rejects.toMatchObject({
      code: 'venue_unavailable',
      message: 'Kalshi did not answer in time.',
    });
  });

  it('an order book that does not answer within the timeout, and a 5xx', async () => {
    const fake = await startFake();
    const data = client(fake.baseUrl, 200);
    fake.injectFault({ fault: { kind: 'delay', ms: 800, placeBeforeDelay: true }, pathPrefix: `/trade-api/v2/markets/${FED}/orderbook` });
    await expect(data.orderBook(FED)).rejects.toMatchObject({ code: 'venue_unavailable', message: 'Kalshi did not answer in time.' });
    fake.injectFault({ fault: { kind: 'server_error', status: 503 }, pathPrefix: '/trade-api/v2/series/' });
    await expect(data.series('KXMDFED')).rejects.toMatchObject({ code: 'venue_unavailable', message: 'Kalshi answered 503.' });
  });

  it('a refusal keeps Kalshi\'s code; an unreachable venue is unavailable too', async () => {
    const fake = await startFake();
    // Kalshi refuses a limit above 1000 (a bare {"msg"} 400): the client never sends one.
    await expect(all(client(fake.baseUrl).markets({ limit: 1001 }))).rejects.toThrow(RangeError);
    expect(fake.requests).toEqual([]);
    fake.injectFault({ fault: { kind: 'rate_limit' }, pathPrefix: '/trade-api/v2/events/', times: 10 });
    await expect(client(fake.baseUrl).event('KXMDHIGH-26DEC31')).rejects.toMatchObject({
      code: 'venue_unavailable',
      message: expect.stringContaining("429 'too_many_requests'"),
    });
    const port = await closedPort();
    await expect(client(`http://127.0.0.1:${port}/trade-api/v2`).orderBook(FED)).rejects.toMatchObject({ code: 'venue_unavailable' });
  });

  it('the environment picks the base URL, from the configuration', async () => {
    const demo = await startFake();
    const production = await startFake();
    const config = loadConfig({ KALSHI_DEMO_URL: demo.baseUrl, KALSHI_PRODUCTION_URL: production.baseUrl, KALSHI_TIMEOUT_MS: '2000' });
    const data = kalshiMarketDataFor(config, 'demo');
    clients.push(data);
    await data.orderBook(FED, 1);
    expect(demo.requests.map((r) => r.path)).toEqual([`/trade-api/v2/markets/${FED}/orderbook`]);
    expect(production.requests).toEqual([]);
  });
});
