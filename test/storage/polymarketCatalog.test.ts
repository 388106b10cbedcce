/**
 * The live Polymarket catalog (core/venues/polymarket/catalogSource.ts), synced by the catalog sync
 * (core/services/catalog/catalogSync.ts), against the Gamma fake
 * (fakes/polymarket/gamma.ts) over loopback and real PostgreSQL: it pages Gamma's keyset listing,
 * parses the JSON-encoded string fields (a malformed one skips only that market), keeps binary
 * Yes/No markets with an order book and stores their tokens by `outcomes` order, tick, minimum size
 * and neg-risk flag exactly; it is idempotent and safe when two cores run it at once; it closes or
 * settles what Gamma no longer lists open, and never after a listing that failed half-way. The
 * operator's question links key the Polymarket rows with the Kalshi ticker.
 *
 * The suite has a database of its own: the sync closes every open live Polymarket row Gamma does not list.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { formatDecimal } from '../../core/domain/decimals';
import { validateOrderInput } from '../../core/domain/venueRules';
import { newId } from '../../core/domain/ids';
import { syncCatalog } from '../../core/services/catalog/catalogSync';
import { polymarketCatalogSource } from '../../core/venues/polymarket/catalogSource';
import { polymarketVenueModule } from '../../core/venues/polymarket/venueModule';
import { linkQuestion, listQuestionLinks, unlinkQuestion } from '../../core/services/catalog/questionLinks';
import { GammaMarkets } from '../../core/venues/polymarket/gammaMarkets';
import type { KalshiFake } from '../../fakes/kalshi/server';
import { GammaFake, gammaMarket } from '../../fakes/polymarket/gamma';
import { defaultTokens } from '../../fakes/polymarket/markets';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { testConfig } from '../support/env';
import { call, envelopeOf } from '../support/http';
import { newKalshiKey } from '../support/kalshiKeys';
import { v2OrderBody } from '../support/kalshiOrders';
import { eventually, FED as KALSHI_FED, liveCoreSettings, liveMarketId, liveSubaccount, MAKER, newLiveTrader, startKalshiFake, type LiveTrader } from '../support/kalshiLive';
import { ownDatabase } from '../support/ownDatabase';
import { clobMaker } from '../support/polymarketClob';
import { startStack, type Stack } from '../support/stack';
import { marketRulesOf } from '../../core/venues/venueModules';

const SLOW = 60_000;
const condition = (byte: string) => `0x${byte.repeat(32)}`;
const token = (digit: string) => digit.repeat(77);

const FED = condition('11');
const ELECTION = condition('22');
const PAUSED = condition('33');
const MULTI = condition('44');
const NO_BOOK = condition('55');
const BROKEN = condition('66');
const ODD_TICK = condition('77');
const LATER = condition('88');
/** A live listing, as the question links name one. */
const kx = (ticker: string) => ({ venue: 'kalshi', venueMarketId: ticker });
const pm = (conditionId: string) => ({ venue: 'polymarket', venueMarketId: conditionId });

const SEEDS = [
  gammaMarket(
    { conditionId: FED, question: 'Will the Fed cut rates in December 2026?', yesTokenId: token('1'), noTokenId: token('2'), tickSize: 0.01, minSize: 5, category: 'Economics', endDate: '2026-12-16T19:00:00Z', description: 'Resolves Yes if the FOMC cuts.' },
  ),
  // Outcomes listed No first: the token ids follow `outcomes`, so YES is the second id.
  gammaMarket(
    { conditionId: ELECTION, question: 'Will Gavin Newsom win the 2028 Democratic nomination?', yesTokenId: token('4'), noTokenId: token('3'), tickSize: 0.001, minSize: 15, negRisk: true, endDate: '2028-11-07T00:00:00Z' },
    { outcomes: '["No", "Yes"]', clobTokenIds: JSON.stringify([token('3'), token('4')]), events: [{ id: '30829', category: 'Politics' }] },
  ),
  gammaMarket({ conditionId: PAUSED, question: 'Paused market?', yesTokenId: token('5'), noTokenId: token('6'), acceptingOrders: false }),
  gammaMarket({ conditionId: MULTI, question: 'Who wins the final?', yesTokenId: token('7'), noTokenId: token('8'), outcomes: ['Lakers', 'Celtics'] }),
  // No book; and tokens not created on the CLOB yet (Gamma sends an empty string): both left out, neither malformed.
  gammaMarket({ conditionId: NO_BOOK, question: 'No book?', yesTokenId: token('9'), noTokenId: `9${token('1')}`, enableOrderBook: false }, { clobTokenIds: '' }),
  gammaMarket({ conditionId: BROKEN, question: 'Broken?', yesTokenId: '1', noTokenId: '2' }, { clobTokenIds: '["1111", ' }),
  gammaMarket({ conditionId: ODD_TICK, question: 'Half-cent ticks?', yesTokenId: `1${token('2')}`, noTokenId: `2${token('1')}`, tickSize: 0.005 }),
];

const livePolymarket = (db: Db) => db.market.findMany({ where: { environment: 'live', venue: 'polymarket' }, orderBy: { venueMarketId: 'asc' } });
const statuses = async (db: Db) => Object.fromEntries((await livePolymarket(db)).map((m) => [m.venueMarketId, m.status]));

describe('the Polymarket catalog, synced against the Gamma fake', () => {
  let db: Db;
  let gamma: GammaFake;
  const clients: GammaMarkets[] = [];
  const reader = () => {
    const made = new GammaMarkets({ baseUrl: gamma.baseUrl, timeoutMs: 2000 });
    clients.push(made);
    return made;
  };
  const sync = (options: { pageLimit?: number } = {}) => syncCatalog(db, polymarketVenueModule, polymarketCatalogSource(reader()), options);
  const listings = () => gamma.requests.filter((r) => r.path === '/markets/keyset' && r.query.get('closed') === 'false');

  beforeAll(async () => {
    db = createPrismaClient(await ownDatabase('pmcatalog'), 4);
    gamma = await GammaFake.start({ markets: SEEDS });
  }, SLOW);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await gamma?.close();
    await db?.$disconnect();
  });

  it('two cores syncing at once page the keyset listing and fill the live environment once; non-binary, bookless and malformed markets are left out and counted', async () => {
    const [first, second] = await Promise.all([
      sync({ pageLimit: 2 }),
      sync({ pageLimit: 2 }),
    ]);
    expect(first).toMatchObject({ listed: 7, closed: 0, skipped: 3, malformed: 1 });
    expect(second).toMatchObject({ listed: 7, closed: 0, skipped: 3, malformed: 1 });
    expect(first.upserted + second.upserted).toBe(3);
    expect((await livePolymarket(db)).map((m) => m.venueMarketId)).toEqual([FED, ELECTION, PAUSED]);
    // Per sync: four pages of two (7 markets), the second to fourth continuing from the previous next_cursor.
    const pages = listings();
    expect(pages).toHaveLength(8);
    expect(pages.every((r) => r.query.get('limit') === '2' && !r.query.has('offset'))).toBe(true);
    expect(pages.filter((r) => !r.query.has('after_cursor'))).toHaveLength(2);
  });

  it('rows carry the tokens by outcomes order, exact tick and minimum size, neg risk, category, close time; a paused market is closed', async () => {
    const byId = new Map((await livePolymarket(db)).map((m) => [m.venueMarketId, m]));
    const fed = byId.get(FED)!;
    expect({ ...fed, tickSize: formatDecimal(fed.tickSize), minSize: formatDecimal(fed.minSize) }).toMatchObject({
      environment: 'live',
      venue: 'polymarket',
      questionKey: null,
      title: 'Will the Fed cut rates in December 2026?',
      description: 'Resolves Yes if the FOMC cuts.',
      category: 'economics',
      status: 'open',
      closeTime: new Date('2026-12-16T19:00:00Z'),
      tickSize: '0.01',
      minSize: '5',
      yesTokenId: token('1'),
      noTokenId: token('2'),
      negRisk: false,
      priceRanges: null,
      feeType: null,
    });
    const election = byId.get(ELECTION)!;
    expect(election).toMatchObject({ yesTokenId: token('4'), noTokenId: token('3'), negRisk: true, category: 'politics', closeTime: new Date('2028-11-07T00:00:00Z') });
    expect([formatDecimal(election.tickSize), formatDecimal(election.minSize)]).toEqual(['0.001', '15']);
    expect(byId.get(PAUSED)).toMatchObject({ status: 'closed', category: 'other' });
    // The rules an order is checked by: the 0.001 tick and the 15-share minimum.
    const rules = marketRulesOf(election);
    expect(validateOrderInput(rules, { type: 'limit', price: '0.4235', quantity: '20' })).toMatchObject({ ok: false, param: 'price' });
    expect(validateOrderInput(rules, { type: 'limit', price: '0.423', quantity: '10' })).toMatchObject({ ok: false, param: 'quantity' });
    expect(validateOrderInput(rules, { type: 'limit', price: '0.423', quantity: '15.5' })).toMatchObject({ ok: true });
  });

  it('a second sync of an unchanged venue writes nothing', async () => {
    const stamps = (await livePolymarket(db)).map((m) => [m.venueMarketId, m.updatedAt.toISOString()]);
    await expect(sync()).resolves.toEqual({ listed: 7, upserted: 0, closed: 0, skipped: 3, malformed: 1 });
    expect((await livePolymarket(db)).map((m) => [m.venueMarketId, m.updatedAt.toISOString()])).toEqual(stamps);
  });

  it('a sync that cannot list Gamma completely closes nothing and names the failure', async () => {
    gamma.removeMarket(PAUSED);
    const was = await statuses(db);
    // Gamma answers 502: PAUSED, gone from the venue, would be closed after a complete listing.
    gamma.injectFault({ fault: { kind: 'server_error', status: 502 }, pathPrefix: '/markets/keyset', times: 1 });
    await expect(sync({ pageLimit: 2 })).rejects.toMatchObject({ code: 'venue_unavailable', message: 'Polymarket Gamma (GET /markets/keyset) answered 502.' });
    expect(await statuses(db)).toEqual(was);
  });

  it('what Gamma no longer lists open is closed, or settled once resolved (asked by condition_ids with closed=true); a new market comes in; a market accepting orders again reopens', async () => {
    gamma.resolveMarket(ELECTION, 'No');
    gamma.closeMarket(FED);
    gamma.addMarket(gammaMarket({ conditionId: LATER, question: 'Later market?', yesTokenId: `3${token('1')}`, noTokenId: `4${token('1')}` }));
    await expect(sync()).resolves.toEqual({ listed: 5, upserted: 1, closed: 2, skipped: 3, malformed: 1 });
    expect(await statuses(db)).toEqual({ [FED]: 'closed', [ELECTION]: 'settled', [PAUSED]: 'closed', [LATER]: 'open' });
    const lookups = gamma.requests.filter((r) => r.query.get('closed') === 'true');
    expect(lookups.map((r) => r.query.getAll('condition_ids').sort())).toEqual([[FED, ELECTION].sort()]);
    // Idempotent after the change too.
    await expect(sync()).resolves.toMatchObject({ upserted: 0, closed: 0 });
    gamma.updateMarket(LATER, { acceptingOrders: false });
    await expect(sync()).resolves.toMatchObject({ upserted: 1, closed: 0 });
    expect((await statuses(db))[LATER]).toBe('closed');
    gamma.updateMarket(LATER, { acceptingOrders: true });
    await expect(sync()).resolves.toMatchObject({ upserted: 1, closed: 0 });
    expect((await statuses(db))[LATER]).toBe('open');
  });

  it("an operator's link keys the Polymarket row with the Kalshi ticker at once and in every sync; unlinking clears it", async () => {
    const ticker = 'KXPMLINK-26DEC-T1';
    await db.market.create({
      data: { id: newId('market'), environment: 'live', venue: 'kalshi', venueMarketId: ticker, questionKey: ticker, title: 'Later market (Kalshi)?', category: 'other', tickSize: '0.01', minSize: '1' },
    });
    await expect(linkQuestion(db, { listing: pm(LATER.toUpperCase().replace('0X', '0x')), anchor: kx(ticker), createdBy: 'ops' })).resolves.toMatchObject({
      anchor: { venue: 'kalshi', venueMarketId: ticker, title: 'Later market (Kalshi)?' },
      listing: { venue: 'polymarket', venueMarketId: LATER, title: 'Later market?' },
      questionKey: ticker,
      createdBy: 'ops',
    });
    const keyOf = async (conditionId: string) => (await db.market.findFirstOrThrow({ where: { venue: 'polymarket', venueMarketId: conditionId } })).questionKey;
    expect(await keyOf(LATER)).toBe(ticker);
    // The sync keeps the key: nothing to write.
    await expect(sync()).resolves.toMatchObject({ upserted: 0 });
    expect(await keyOf(LATER)).toBe(ticker);
    // One link per side.
    await expect(linkQuestion(db, { listing: pm(FED), anchor: kx(ticker), createdBy: 'ops' })).rejects.toMatchObject({
      code: 'conflict', message: `Already linked: kalshi ${ticker} <-> polymarket ${LATER}; unlink it first.`,
    });
    await expect(linkQuestion(db, { listing: pm(FED), anchor: kx('KXNOTLISTED'), createdBy: 'ops' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(linkQuestion(db, { listing: pm('0x1234'), anchor: kx(ticker), createdBy: 'ops' })).rejects.toMatchObject({
      code: 'invalid_request', message: "'0x1234' is not a Polymarket condition id (0x and 64 hex digits).",
    });
    // Two listings of one venue, a venue that is not one, and a listing whose venue keys it itself: refused.
    await expect(linkQuestion(db, { listing: kx('KXNOTLISTED'), anchor: kx(ticker), createdBy: 'ops' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(linkQuestion(db, { listing: { venue: 'nowhere', venueMarketId: 'X' }, anchor: kx(ticker), createdBy: 'ops' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(linkQuestion(db, { listing: kx(ticker), anchor: pm(FED), createdBy: 'ops' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(unlinkQuestion(db, kx(ticker))).resolves.toMatchObject({ listing: { venueMarketId: LATER } });
    expect(await keyOf(LATER)).toBeNull();
    expect(await listQuestionLinks(db)).toEqual([]);
  });

  it('a condition linked before Gamma lists it gets the key when the sync creates its row', async () => {
    const ticker = 'KXPMEARLY-26DEC-T1';
    const early = condition('99');
    await db.market.create({
      data: { id: newId('market'), environment: 'live', venue: 'kalshi', venueMarketId: ticker, questionKey: ticker, title: 'Early?', category: 'other', tickSize: '0.01', minSize: '1' },
    });
    await expect(linkQuestion(db, { listing: pm(early), anchor: kx(ticker), createdBy: 'ops' })).resolves.toMatchObject({ listing: { title: null } });
    gamma.addMarket(gammaMarket({ conditionId: early, question: 'Early?', yesTokenId: `5${token('1')}`, noTokenId: `6${token('1')}` }));
    await expect(sync()).resolves.toMatchObject({ upserted: 1 });
    expect(await db.market.findFirstOrThrow({ where: { venue: 'polymarket', venueMarketId: early } })).toMatchObject({ questionKey: ticker, status: 'open' });
  });
});

/**
 * The wired syncs and the question join end to end: a core syncs Kalshi (the Kalshi fake) and
 * Polymarket (the Gamma fake) at start-up; the operator links the two listings of one question;
 * `POST /v1/complex_orders/preview` with a live key then reads both venues' books (Kalshi's
 * orderbook, the Polymarket CLOB fake's `GET /book` of the YES token) and plans across them.
 */
describe('a live key previews a complex order across Kalshi and Polymarket for a linked question', () => {
  const [PM_YES, PM_NO] = defaultTokens();
  const maker = clobMaker();
  const alice = newKalshiKey();

  let kalshi: KalshiFake;
  let clob: PolymarketFake;
  let gamma: GammaFake;
  let stack: Stack;
  let trader: LiveTrader;

  beforeAll(async () => {
    kalshi = await startKalshiFake('production', [{ userId: 'user-alice', key: alice }]);
    clob = await PolymarketFake.start({ accounts: [maker.account] });
    gamma = await GammaFake.start({
      markets: [gammaMarket({ conditionId: PM_YES!.conditionId, question: 'Will the Fed funds upper bound be above 4.00% after December 2026?', yesTokenId: PM_YES!.tokenId, noTokenId: PM_NO!.tokenId, tickSize: 0.01, minSize: 5 })],
    });
    stack = await startStack(
      testConfig(
        await liveCoreSettings('pmcatalog_preview', kalshi, { POLYMARKET_GAMMA_URL: gamma.baseUrl, POLYMARKET_CATALOG_SYNC_MS: '600000', POLYMARKET_CLOB_URL: clob.baseUrl, POLYMARKET_TIMEOUT_MS: '2000' }),
      ),
    );
    trader = await newLiveTrader(stack.core.db, stack.gateways[0]!, 'cross-venue preview');
    // Kalshi: 3 offered at 0.50, a bid at 0.44. Polymarket: 20 offered at 0.52, a bid at 0.45.
    expect(kalshi.placeOrderAs(MAKER, v2OrderBody(KALSHI_FED, { side: 'ask', price: '0.5000', count: '3.00' }))).toMatchObject({ status: 201 });
    expect(kalshi.placeOrderAs(MAKER, v2OrderBody(KALSHI_FED, { side: 'bid', price: '0.4400', count: '5.00' }))).toMatchObject({ status: 201 });
    await maker.rest(clob, { tokenId: PM_YES!.tokenId, side: 'SELL', price: '0.52', size: '20' });
    await maker.rest(clob, { tokenId: PM_YES!.tokenId, side: 'BUY', price: '0.45', size: '10' });
  }, SLOW);
  afterAll(async () => {
    await stack?.close();
    await Promise.all([kalshi?.close(), clob?.close(), gamma?.close()]);
  });

  it('plans on Kalshi alone until the operator links the listings, then across both venues on their own books', async () => {
    const db = stack.core.db;
    const kalshiId = await liveMarketId(db, KALSHI_FED);
    const polymarketId = await eventually('the Polymarket sync bringing the condition', async () =>
      (await db.market.findFirst({ where: { environment: 'live', venue: 'polymarket', venueMarketId: PM_YES!.conditionId } }))?.id, 20_000);
    const subaccount = await liveSubaccount(trader, 'cross venue');
    const preview = async () => {
      const response = await call(trader.base, 'POST', '/v1/complex_orders/preview', {
        key: trader.live,
        body: { subaccount_id: subaccount, market_id: kalshiId, side: 'yes', action: 'buy', quantity: '10', strategy: 'sweep' },
      });
      expect(response.status).toBe(200);
      return response.body;
    };

    const alone = await preview();
    expect(alone.market_ids_by_venue).toEqual({ kalshi: kalshiId });
    expect(alone.plan.recommended.impact.expected_filled_quantity).toBe('3');
    expect(clob.requests.filter((r) => r.path === '/book')).toEqual([]);

    await linkQuestion(db, { listing: pm(PM_YES!.conditionId), anchor: kx(KALSHI_FED), createdBy: 'test' });
    const across = await preview();
    expect(across.market_ids_by_venue).toEqual({ kalshi: kalshiId, polymarket: polymarketId });
    // Kalshi's 3 at 0.50 (0.5175 with its fee), then 7 of Polymarket's 20 at 0.52; the best bid is
    // Polymarket's 0.45 and the best ask Kalshi's 0.50: arrival mid 0.475.
    const children = across.plan.recommended.children.map((c: { venue: string; quantity: string; price: string }) => [c.venue, c.quantity, c.price]);
    expect(children.sort()).toEqual([['kalshi', '3', '0.5'], ['polymarket', '7', '0.52']]);
    expect(across.plan.recommended.impact.expected_filled_quantity).toBe('10');
    expect(across.plan.arrival_mid).toBe('0.475');
    // The Polymarket book was read for the YES token of the linked condition.
    const books = clob.requests.filter((r) => r.path === '/book');
    expect(books.length).toBeGreaterThan(0);
    expect(books.every((r) => new URLSearchParams(r.query).get('token_id') === PM_YES!.tokenId)).toBe(true);
  });

  it('placing that plan without Polymarket credentials is refused 403 and sends nothing to either venue', async () => {
    const db = stack.core.db;
    const kalshiId = await liveMarketId(db, KALSHI_FED);
    const subaccount = await liveSubaccount(trader, 'cross venue orders', { key: alice, environment: 'production' });
    const placed = await call(trader.base, 'POST', '/v1/complex_orders', {
      key: trader.live,
      headers: { 'Idempotency-Key': randomUUID() },
      body: { subaccount_id: subaccount, market_id: kalshiId, side: 'yes', action: 'buy', quantity: '10', strategy: 'sweep' },
    });
    expect(placed.status).toBe(403);
    expect(envelopeOf(placed).message).toMatch(/no polymarket credentials/);
    // Nothing went to Kalshi, nothing was recorded.
    expect(kalshi.requestsSignedBy(alice.keyId).filter((r) => r.method === 'POST')).toEqual([]);
    expect(await db.complexOrder.count({ where: { subaccountId: subaccount } })).toBe(0);
    expect(await db.order.count({ where: { subaccountId: subaccount } })).toBe(0);
  });
});
