/**
 * The live Kalshi catalog (core/venues/kalshi/catalogSource.ts), synced by the catalog sync
 * (core/services/catalog/catalogSync.ts), against the Kalshi fake over loopback
 * and real PostgreSQL: it fills the `live` environment with the fake's open markets (exact decimals
 * of price ranges and fees), is idempotent and safe when two cores run it at once, closes or settles
 * what the venue no longer lists open, and the rules of a synced market refuse an off-range price.
 * Then the wired sync (core start-up) and `GET /v1/markets` / `POST /v1/orders` with a live key.
 *
 * Each describe has a database of its own: the sync closes every open live Kalshi row the venue
 * does not list, and other suites create live Kalshi rows of their own in the shared one.
 *
 * The fake has no market lifecycle (it cannot close or settle a market once started;
 * docs/kalshi-fake.md): a second fake instance, seeded with the later catalog, plays the venue
 * after the change.
 */
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { formatDecimal } from '../../core/domain/decimals';
import { computeFee, validateOrderInput } from '../../core/domain/venueRules';
import { syncCatalog } from '../../core/services/catalog/catalogSync';
import { kalshiCatalogSource } from '../../core/venues/kalshi/catalogSource';
import { kalshiVenueModule } from '../../core/venues/kalshi/venueModule';
import { KalshiMarketData, type KalshiEvent } from '../../core/venues/kalshi/marketData';
import { KALSHI_RATE_TIERS } from '../../core/venues/kalshi/tokenBuckets';
import type { CatalogSeed, MarketSeed } from '../../fakes/kalshi/markets';
import { KalshiFake } from '../../fakes/kalshi/server';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { ownDatabase } from '../support/ownDatabase';
import { marketRulesOf } from '../../core/venues/venueModules';

const SLOW = 60_000;
const TAPERED = [
  { start: '0.0000', end: '0.1000', step: '0.0010' },
  { start: '0.1000', end: '0.9000', step: '0.0100' },
  { start: '0.9000', end: '1.0000', step: '0.0010' },
];
const FED = 'KXLCFED-26DEC-T4.00';
const HIGH = 'KXLCHIGH-26DEC31-T40';
const FED_425 = 'KXLCFED-26DEC-T4.25';
const FED_450 = 'KXLCFED-26DEC-T4.50';
const FED_475 = 'KXLCFED-26DEC-T4.75';
const FED_500 = 'KXLCFED-26DEC-T5.00';
const ODD = 'KXLCODD-26DEC-T1';

const fed = (ticker: string, overrides: Partial<MarketSeed> = {}): MarketSeed => ({
  event_title: 'Fed decision in December 2026',
  ticker,
  event_ticker: 'KXLCFED-26DEC',
  series_ticker: 'KXLCFED',
  title: `Will the upper bound of the fed funds rate be above ${ticker.slice(-4)}% after the December 2026 meeting?`,
  close_time: '2026-12-16T19:00:00Z',
  ...overrides,
});
const high: MarketSeed = {
  ticker: HIGH,
  event_ticker: 'KXLCHIGH-26DEC31',
  series_ticker: 'KXLCHIGH',
  title: 'Will the high temperature in New York exceed 40F on Dec 31, 2026?',
  yes_sub_title: 'Above 40°F',
  close_time: '2026-12-31T23:59:00Z',
  price_ranges: TAPERED,
  price_level_structure: 'tapered_deci_cent',
  fractional_trading_enabled: true,
};
const SERIES: CatalogSeed['series'] = [
  { ticker: 'KXLCFED', title: 'Fed funds rate (fake)', category: 'Economics', fee_type: 'quadratic', fee_multiplier: '1' },
  { ticker: 'KXLCHIGH', title: 'High temperature (fake)', category: 'Climate', fee_type: 'quadratic_with_maker_fees', fee_multiplier: '0.5' },
];

/** The venue at first: four open markets (one more is paused, so not listed open). */
const BEFORE: CatalogSeed = {
  series: SERIES,
  markets: [
    fed(FED, { rules_primary: 'Resolves YES if the FOMC sets the upper bound above 4.00%.' }),
    high,
    fed(FED_425),
    fed(FED_450),
    fed(FED_475, { status: 'inactive' }),
  ],
};
/** The venue later: 4.25 finalized, 4.50 gone, 5.00 new, and a market whose ranges are finer than we can trade. */
const AFTER: CatalogSeed = {
  series: SERIES,
  markets: [
    fed(FED, { rules_primary: 'Resolves YES if the FOMC sets the upper bound above 4.00%.' }),
    high,
    fed(FED_425, { status: 'finalized' }),
    fed(FED_500),
    { ticker: ODD, event_ticker: 'KXLCODD-26DEC', series_ticker: 'KXLCODD', title: 'Odd ticks', close_time: '2026-12-16T19:00:00Z', price_ranges: [{ start: '0', end: '1', step: '0.00005' }] },
  ],
};

const marketData = (fake: KalshiFake) =>
  new KalshiMarketData({ restUrl: fake.baseUrl, timeoutMs: 2000, tier: KALSHI_RATE_TIERS.basic, backoff: { baseMs: 10, maxMs: 40, maxAttempts: 3 } });

const liveKalshi = (db: Db) => db.market.findMany({ where: { environment: 'live', venue: 'kalshi' }, orderBy: { venueMarketId: 'asc' } });
const statuses = async (db: Db) => Object.fromEntries((await liveKalshi(db)).map((m) => [m.venueMarketId, m.status]));

describe('the Kalshi catalog, synced against the fake', () => {
  let databaseUrl: string;
  let db: Db;
  let before: KalshiFake;
  let after: KalshiFake;
  const clients: KalshiMarketData[] = [];
  const open = (fake: KalshiFake) => {
    const made = marketData(fake);
    clients.push(made);
    return made;
  };
  const sync = (fake: KalshiFake, options: { pageLimit?: number; knownEvents?: Map<string, KalshiEvent | null> } = {}) =>
    syncCatalog(db, kalshiVenueModule, kalshiCatalogSource(open(fake), options.knownEvents), { pageLimit: options.pageLimit });

  beforeAll(async () => {
    databaseUrl = await ownDatabase('livecatalog');
    db = createPrismaClient(databaseUrl, 4);
    before = await KalshiFake.start({ catalog: BEFORE });
    after = await KalshiFake.start({ catalog: AFTER });
  }, SLOW);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await before?.close();
    await after?.close();
    await db?.$disconnect();
  });

  it('two cores syncing at once fill the live environment once, paging GET /markets, the open events listed and each series read once per sync', async () => {
    const [first, second] = await Promise.all([
      sync(before, { pageLimit: 2 }),
      sync(before, { pageLimit: 2 }),
    ]);
    expect(first).toMatchObject({ listed: 4, closed: 0, skipped: 0 });
    expect(second).toMatchObject({ listed: 4, closed: 0, skipped: 0 });
    expect(first.upserted + second.upserted).toBe(4);
    expect((await liveKalshi(db)).map((m) => m.venueMarketId)).toEqual([FED, FED_425, FED_450, HIGH]);
    // Per sync: one page of GET /events?status=open, two pages of GET /markets?status=open, two series; no event read by ticker.
    const paths = before.requests.map((r) => r.path.replace('/trade-api/v2', ''));
    expect(paths.filter((p) => p === '/markets')).toHaveLength(4);
    expect(paths.filter((p) => p === '/events')).toHaveLength(2);
    expect(paths.filter((p) => p.startsWith('/events/'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('/series/')).sort()).toEqual(['/series/KXLCFED', '/series/KXLCFED', '/series/KXLCHIGH', '/series/KXLCHIGH']);
    // Each market in its Kalshi event (GET /v1/market_events): the event ticker, its title, category and series.
    const events = await db.marketEvent.findMany({ where: { venue: 'kalshi' }, orderBy: { venueEventId: 'asc' }, include: { markets: { select: { venueMarketId: true }, orderBy: { venueMarketId: 'asc' } } } });
    expect(events.map((e) => [e.environment, e.venueEventId, e.seriesKey, e.category, e.markets.map((m) => m.venueMarketId)])).toEqual([
      ['live', 'KXLCFED-26DEC', 'KXLCFED', 'economics', [FED, FED_425, FED_450]],
      ['live', 'KXLCHIGH-26DEC31', 'KXLCHIGH', 'climate', [HIGH]],
    ]);
    expect(events[0]!.title).toBe('Fed decision in December 2026');
  });

  it('rows carry exact decimals: price ranges as Kalshi wrote them, tick = smallest step, fee type and multiplier, quantity step', async () => {
    const rows = await liveKalshi(db);
    const byTicker = new Map(rows.map((m) => [m.venueMarketId, m]));
    const tapered = byTicker.get(HIGH)!;
    expect({
      ...tapered,
      tickSize: formatDecimal(tapered.tickSize),
      minSize: formatDecimal(tapered.minSize),
      feeMultiplier: formatDecimal(tapered.feeMultiplier),
    }).toMatchObject({
      environment: 'live',
      venue: 'kalshi',
      venueMarketId: HIGH,
      questionKey: HIGH,
      title: 'Will the high temperature in New York exceed 40F on Dec 31, 2026?',
      description: 'Above 40°F',
      category: 'climate',
      status: 'open',
      closeTime: new Date('2026-12-31T23:59:00Z'),
      priceRanges: TAPERED,
      tickSize: '0.001',
      minSize: '0.01',
      feeType: 'quadratic_with_maker_fees',
      feeMultiplier: '0.5',
      fractionalTrading: true,
      fairValue: null,
    });
    const cents = byTicker.get(FED)!;
    expect(cents).toMatchObject({
      questionKey: FED,
      description: 'Resolves YES if the FOMC sets the upper bound above 4.00%.',
      category: 'economics',
      priceRanges: [{ start: '0.0000', end: '1.0000', step: '0.0100' }],
      feeType: 'quadratic',
      fractionalTrading: false,
    });
    expect([formatDecimal(cents.tickSize), formatDecimal(cents.minSize), formatDecimal(cents.feeMultiplier)]).toEqual(['0.01', '1', '1']);
    // Kalshi's volume_fp ("0.00" before any trade), for GET /v1/markets?sort=volume.
    expect(formatDecimal(cents.venueVolume)).toBe('0');
    // The strings are stored as sent (jsonb keeps them as strings, not numbers).
    const [raw] = await db.$queryRaw<{ ranges: string }[]>`SELECT price_ranges::text AS ranges FROM markets WHERE venue_market_id = ${HIGH}`;
    expect(raw!.ranges).toBe(
      '[{"end": "0.1000", "step": "0.0010", "start": "0.0000"}, {"end": "0.9000", "step": "0.0100", "start": "0.1000"}, {"end": "1.0000", "step": "0.0010", "start": "0.9000"}]',
    );
  });

  it("a synced market's rules: its fees from the series, an off-range price refused naming price, a sub-cent step price accepted", async () => {
    const rules = marketRulesOf((await liveKalshi(db)).find((m) => m.venueMarketId === HIGH)!);
    expect(rules.fees).toEqual({ kind: 'quadratic_rounded_up', takerRate: '0.035', makerRate: '0.00875', feeDecimals: 4 });
    // 10 contracts at 0.42: taker 0.035 x 10 x 0.42 x 0.58 = 0.08526 -> 0.0853; maker 0.00875 x 2.436 = 0.021315 -> 0.0214.
    expect(computeFee(rules, { priceTicks: 4200, quantityUnits: 1000, liquidity: 'taker' })).toBe('0.0853');
    expect(computeFee(rules, { priceTicks: 4200, quantityUnits: 1000, liquidity: 'maker' })).toBe('0.0214');
    expect(validateOrderInput(rules, { type: 'limit', price: '0.105', quantity: '2.50' })).toMatchObject({ ok: false, param: 'price', code: 'off_tick' });
    expect(validateOrderInput(rules, { type: 'limit', price: '0.035', quantity: '2.50' })).toEqual({ ok: true, priceTicks: 350, quantityUnits: 250 });
  });

  it('a second sync changes nothing and writes nothing; the events are listed again (titles can change), none read one by one', async () => {
    const stamps = (await liveKalshi(db)).map((m) => [m.venueMarketId, m.updatedAt.toISOString()]);
    const eventStamps = (await db.marketEvent.findMany({ where: { venue: 'kalshi' } })).map((e) => [e.id, e.updatedAt.toISOString()]);
    const knownEvents = new Map<string, KalshiEvent | null>();
    await expect(sync(before, { knownEvents })).resolves.toEqual({ listed: 4, upserted: 0, closed: 0, skipped: 0, malformed: 0 });
    expect((await liveKalshi(db)).map((m) => [m.venueMarketId, m.updatedAt.toISOString()])).toEqual(stamps);
    expect((await db.marketEvent.findMany({ where: { venue: 'kalshi' } })).map((e) => [e.id, e.updatedAt.toISOString()])).toEqual(eventStamps);
    const listCalls = () => before.requests.filter((r) => r.path.endsWith('/events')).length;
    const tickerCalls = () => before.requests.filter((r) => r.path.includes('/events/')).length;
    const seriesCalls = () => before.requests.filter((r) => r.path.includes('/series/')).length;
    const [lists, series] = [listCalls(), seriesCalls()];
    await expect(sync(before, { knownEvents })).resolves.toEqual({ listed: 4, upserted: 0, closed: 0, skipped: 0, malformed: 0 });
    expect([listCalls(), tickerCalls()]).toEqual([lists + 1, 0]);
    expect(seriesCalls()).toBe(series + 2); // fees are read again each sync
  });

  it('a sync that cannot list the venue completely closes nothing', async () => {
    const was = await statuses(db);
    after.injectFault({ fault: { kind: 'server_error', status: 502 }, pathPrefix: '/trade-api/v2/markets' });
    await expect(sync(after)).rejects.toMatchObject({ code: 'venue_unavailable', message: 'Kalshi answered 502.' });
    expect(await statuses(db)).toEqual(was);
  });

  it('what the venue no longer lists open is closed, or settled when Kalshi says finalized (asked by tickers=); new markets come in; unusable ranges are skipped', async () => {
    await expect(sync(after)).resolves.toEqual({ listed: 4, upserted: 1, closed: 2, skipped: 1, malformed: 0 });
    expect(await statuses(db)).toEqual({ [FED]: 'open', [FED_425]: 'settled', [FED_450]: 'closed', [FED_500]: 'open', [HIGH]: 'open' });
    const lookup = after.requests.filter((r) => r.path === '/trade-api/v2/markets' && r.query.includes('tickers='));
    expect(lookup.map((r) => new URLSearchParams(r.query).get('tickers'))).toEqual([`${FED_425},${FED_450}`]);
    expect(lookup.every((r) => !new URLSearchParams(r.query).has('status'))).toBe(true);
    // Idempotent after the change too.
    await expect(sync(after)).resolves.toEqual({ listed: 4, upserted: 0, closed: 0, skipped: 1, malformed: 0 });
    // A market listed open again is reopened; 5.00, unknown to the earlier venue, is closed.
    await expect(sync(before)).resolves.toEqual({ listed: 4, upserted: 2, closed: 1, skipped: 0, malformed: 0 });
    expect(await statuses(db)).toEqual({ [FED]: 'open', [FED_425]: 'open', [FED_450]: 'open', [FED_500]: 'closed', [HIGH]: 'open' });
  });

  it('a market the venue settled that a subaccount holds is only determined: the settlement sweep settles it when it books the payouts', async () => {
    const [market] = await db.$queryRaw<{ id: string }[]>`SELECT id FROM markets WHERE venue = 'kalshi' AND venue_market_id = ${FED_425}`;
    await db.$executeRaw`INSERT INTO workspaces (id, name) VALUES ('ws_catalog_holder', 'holder')`;
    await db.$executeRaw`INSERT INTO subaccounts (id, workspace_id, environment, name) VALUES ('sub_catalog_holder', 'ws_catalog_holder', 'live', 'holder')`;
    await db.$executeRaw`INSERT INTO positions (subaccount_id, market_id, side, quantity, cost_basis) VALUES ('sub_catalog_holder', ${market!.id}, 'yes', 10, 4.5)`;
    await expect(sync(after)).resolves.toMatchObject({ closed: 2 });
    expect(await statuses(db)).toMatchObject({ [FED_425]: 'determined', [FED_450]: 'closed' });
  });
});

describe('the wired sync: a core syncs at start-up; live keys search and trade-check the synced markets', () => {
  let databaseUrl: string;
  let fake: KalshiFake;
  let stack: Stack;

  beforeAll(async () => {
    databaseUrl = await ownDatabase('livecatalog_stack');
    fake = await KalshiFake.start({ catalog: BEFORE });
    stack = await startStack(
      testConfig({ DATABASE_URL: databaseUrl, KALSHI_PRODUCTION_URL: fake.baseUrl, KALSHI_CATALOG_SYNC_MS: '600000', KALSHI_TIMEOUT_MS: '2000' }),
    );
  }, SLOW);
  afterAll(async () => {
    await stack?.close();
    await fake?.close();
  });

  it('GET /v1/markets with a live key finds the synced Kalshi markets; a test key does not see them', async () => {
    const db = stack.core.db;
    // The start-up sync runs in the background: wait for its rows (bounded).
    for (const deadline = Date.now() + 20_000; (await db.market.count({ where: { environment: 'live', venue: 'kalshi' } })) < 4; ) {
      if (Date.now() > deadline) throw new Error('the start-up sync did not fill the live catalog');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { secret: live } = await buildWorkspace(db, { environment: 'live' });
    const { secret: test } = await buildWorkspace(db, { environment: 'test' });
    const found = await call(stack.gateways[0]!, 'GET', '/v1/markets?q=temperature%20york', { key: live });
    expect(found.status).toBe(200);
    expect(found.body.data).toHaveLength(1);
    expect(found.body.data[0]).toMatchObject({ venue: 'kalshi', venue_market_id: HIGH, category: 'climate', status: 'open', tick_size: '0.001', min_size: '0.01' });
    const listed = await call(stack.gateways[0]!, 'GET', '/v1/markets?venue=kalshi&limit=10', { key: live });
    expect(listed.body.data.map((m: { venue_market_id: string }) => m.venue_market_id).sort()).toEqual([FED, FED_425, FED_450, HIGH]);
    const hidden = await call(stack.gateways[0]!, 'GET', '/v1/markets?venue=kalshi', { key: test });
    expect(hidden.body.data).toEqual([]);
  });

  it('POST /v1/orders with a live key: an off-range price is 400 naming price; a sub-cent step price and a fractional count pass to the credentials check', async () => {
    const db = stack.core.db;
    const { secret: live } = await buildWorkspace(db, { environment: 'live' });
    const market = await db.market.findFirstOrThrow({ where: { venue: 'kalshi', venueMarketId: HIGH } });
    const whole = await db.market.findFirstOrThrow({ where: { venue: 'kalshi', venueMarketId: FED } });
    const subaccount = await call(stack.gateways[0]!, 'POST', '/v1/subaccounts', { key: live, body: { name: 'live catalog' } });
    expect(subaccount.status).toBe(200);
    const order = (marketId: string, price: string, quantity: string) =>
      call(stack.gateways[0]!, 'POST', '/v1/orders', {
        key: live,
        body: { subaccount_id: subaccount.body.id, market_id: marketId, side: 'yes', action: 'buy', type: 'limit', price, quantity },
      });
    const offRange = await order(market.id, '0.105', '2.50');
    expect(offRange.status).toBe(400);
    expect(envelopeOf(offRange)).toMatchObject({ code: 'invalid_request', param: 'price' });
    expect(envelopeOf(offRange).message).toMatch(/0\.1 to 0\.9 in steps of 0\.01/);
    const fractionalOnWhole = await order(whole.id, '0.40', '1.5');
    expect(fractionalOnWhole.status).toBe(400);
    expect(envelopeOf(fractionalOnWhole)).toMatchObject({ code: 'invalid_request', param: 'quantity' });
    // Valid on the market's rules: refused only because this subaccount has no Kalshi credentials.
    const subCent = await order(market.id, '0.035', '2.50');
    expect(subCent.status).toBe(403);
    expect(envelopeOf(subCent).message).toMatch(/no kalshi credentials/);
    expect(await db.order.count({ where: { subaccountId: subaccount.body.id } })).toBe(0);
  });
});
