/**
 * Adding a venue is a module and a line in the registry (docs/house-plan.md, "A venue"): a fourth,
 * test-only venue module (addedVenueModule.ts: sim-fourth, simulated, ticks of 0.10, at least 3
 * contracts) is added before the core loads, and everything the rest of the house derives from the
 * registry follows: the core writes it into the database's `venues` rows at start-up, its markets
 * are listed and read through the public API, its simulated venue opens on the house's engine, its
 * rules govern orders, and orders on it fill, with fills, positions and cash booked as on any venue.
 * A database of this suite's own (its venue and markets are for it alone).
 */
import { FOURTH_VENUE, fourthVenueModule } from './addedVenueModule'; // first: before anything loads the registry
import { addVenueModule } from '../../core/venues/addedVenueModules';
import { VENUE_NAMES, venueModule } from '../../core/venues/venueModules';
import { newId } from '../../core/domain/ids';
import { testConfig } from '../support/env';
import { call, envelopeOf } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, fillsOf, getOrder, newTrader, placeOrder, portfolioOf, positionsOf, sum, type Trader } from '../trading/helpers';

let url: string;
let stack: Stack | undefined;

beforeAll(async () => {
  url = await ownDatabase('added_venue');
});

afterAll(async () => {
  await stack?.close();
});

it('the registry holds the added module beside the built-in ones, and refuses a module added once it has loaded', () => {
  expect(VENUE_NAMES).toEqual(['sim-kalshi', 'sim-polymarket', 'kalshi', 'polymarket', FOURTH_VENUE]);
  expect(venueModule('sim_fourth')).toBe(fourthVenueModule);
  expect(() => addVenueModule({ ...fourthVenueModule, name: 'sim-fifth' })).toThrow(
    'venue module sim-fifth was added after the venue registry loaded: add it before the core is imported',
  );
  expect(VENUE_NAMES).not.toContain('sim-fifth');
});

it('a fourth venue module, added before the core loads, is listed, ruled and traded through the public API', async () => {
  // First start: the core writes the registry's venues into the database, the added one included.
  stack = await startStack(testConfig({ DATABASE_URL: url }));
  const db = stack.core.db;
  expect((await db.knownVenue.findMany({ orderBy: { name: 'asc' } })).map((row) => row.name)).toEqual(['kalshi', 'polymarket', 'sim_fourth', 'sim_kalshi', 'sim_polymarket']);
  // The database refuses a venue no module names.
  await expect(db.market.create({ data: { id: newId('market'), environment: 'test', venue: 'sim_nowhere', venueMarketId: 'X', title: 'x', category: 'x', tickSize: '0.1', minSize: '3' } })).rejects.toThrow();

  // Its catalog: two markets, listed as a catalog would list them; the next start opens its simulated venue with them.
  const listed = await Promise.all(
    ['FOURTH-RAIN', 'FOURTH-SUN'].map((venueMarketId) =>
      db.market.create({ data: { id: newId('market'), environment: 'test', venue: 'sim_fourth', venueMarketId, questionKey: venueMarketId, title: `Will it be ${venueMarketId.slice(7).toLowerCase()}?`, category: 'Weather', tickSize: '0.1', minSize: '3', fairValue: '0.5' } }),
    ),
  );
  await stack.close();
  stack = await startStack(testConfig({ DATABASE_URL: url }));
  const [rain] = listed;
  const trader: Trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Fourth venue');
  const subaccount = await createSubaccount(trader, 'fourth', '1000');

  // The market, read through the public API: its venue spelled as every venue is.
  const market = await call(trader.base, 'GET', `/v1/markets/${rain!.id}`, { key: trader.secret });
  expect(market.status).toBe(200);
  expect(market.body).toMatchObject({ id: rain!.id, venue: FOURTH_VENUE, venue_market_id: 'FOURTH-RAIN', tick_size: '0.1', status: 'open' });
  const page = await call<{ data: { id: string; venue: string }[] }>(trader.base, 'GET', '/v1/markets?category=Weather&limit=100', { key: trader.secret });
  expect(page.status).toBe(200);
  expect(page.body.data.filter((row) => row.venue === FOURTH_VENUE).map((row) => row.id).sort()).toEqual(listed.map((row) => row.id).sort());

  // Its module's rules govern the orders: off its tick, below its minimum size: refused, nothing placed.
  const buy = (price: string, quantity: string) => ({ subaccount_id: subaccount, market_id: rain!.id, side: 'yes', action: 'buy', type: 'limit', price, quantity });
  const offTick = await placeOrder(trader, buy('0.55', '3'));
  expect(offTick.status).toBe(400);
  expect(envelopeOf(offTick)).toMatchObject({ code: 'invalid_request', param: 'price' });
  const tooSmall = await placeOrder(trader, buy('0.9', '2'));
  expect(tooSmall.status).toBe(400);
  expect(envelopeOf(tooSmall)).toMatchObject({ code: 'invalid_request', param: 'quantity' });
  expect(await stack.core.db.order.count({ where: { subaccountId: subaccount } })).toBe(0);

  // A marketable buy fills against the venue's market maker: fills, position and cash booked.
  const taken = await placeOrder(trader, buy('0.9', '3'));
  expect(taken.status).toBe(200);
  expect(taken.body).toMatchObject({ venue: FOURTH_VENUE, status: 'filled', filled_quantity: '3', remaining_quantity: '0' });
  const fills = await fillsOf(trader, taken.body.id);
  expect(sum(fills.map((fill) => fill.quantity)).toFixed()).toBe('3');
  for (const fill of fills) {
    expect(D(fill.price).mod('0.1').isZero()).toBe(true); // on its tick
    expect(D(fill.price).lte('0.9')).toBe(true);
    expect(fill.fee).toBe('0');
  }
  const cost = sum(fills.map((fill) => D(fill.price).mul(fill.quantity)));
  expect((await getOrder(trader, taken.body.id)).status).toBe('filled');
  const [position] = await positionsOf(trader, subaccount, rain!.id);
  expect(position).toMatchObject({ market_id: rain!.id, side: 'yes' });
  expect(D(position!.quantity).toFixed()).toBe('3');
  expect(D((await portfolioOf(trader, subaccount)).cash_balance).toFixed()).toBe(D('1000').sub(cost).toFixed());

  // A resting order rests on its book and cancels like any other.
  const resting = await placeOrder(trader, buy('0.1', '3'));
  expect(resting.body).toMatchObject({ venue: FOURTH_VENUE, status: 'open' });
  const canceled = await call(trader.base, 'DELETE', `/v1/orders/${resting.body.id}`, { key: trader.secret });
  expect(canceled.status).toBe(200);
  expect(canceled.body).toMatchObject({ status: 'canceled' });
});
