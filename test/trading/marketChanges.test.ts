/**
 * A market's status and rules, changed in the database (as the live catalog sync changes them),
 * take effect for the very next order on every core: the order path keeps only what never changes
 * about a market (its venue and the venue's id for it) and reads the rest in the placement's
 * transaction. Two cores on one database of this suite's own (the market is closed here, which
 * other suites must not see), each having placed an order on the market before the change.
 */
import { Client } from 'pg';
import { testConfig } from '../support/env';
import { envelopeOf } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, marketOf, newTrader, placed, placeOrder, type Market, type OrderBody, type Trader } from './helpers';

let url: string;
let stacks: Stack[];
let traders: Trader[];
let subaccount: string;
let market: Market;
let polymarket: Market;
let sql: Client;

beforeAll(async () => {
  url = await ownDatabase('market_changes');
  const config = testConfig({ DATABASE_URL: url });
  stacks = [await startStack(config), await startStack(config)];
  const first = await newTrader(stacks[0].core.db, stacks[0].gateways[0], 'Market changes');
  traders = [first, { ...first, base: stacks[1].gateways[0] }];
  subaccount = await createSubaccount(first, 'market changes');
  market = await marketOf(stacks[0].core.db, 'sim_kalshi', 'SHUTDOWN-Q');
  polymarket = await marketOf(stacks[0].core.db, 'sim_polymarket', 'pm-shutdown-q');
  sql = new Client({ connectionString: url });
  await sql.connect();
});

afterAll(async () => {
  await sql?.end();
  for (const stack of stacks ?? []) await stack.close();
});

const restingBuy = (price: string, on = market): OrderBody => ({ subaccount_id: subaccount, market_id: on.id, side: 'yes', action: 'buy', type: 'limit', price, quantity: '5' });

async function openOrders(): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE market_id = $1 AND subaccount_id = $2`, [market.id, subaccount]);
  return rows[0].n;
}

it('refuses the next order on every core once the market closes, and accepts orders again once it reopens', async () => {
  for (const trader of traders) expect((await placed(trader, restingBuy('0.05'))).status).toBe('open');
  expect(await openOrders()).toBe(2);

  await sql.query(`UPDATE markets SET status = 'closed', updated_at = now() WHERE id = $1`, [market.id]);
  for (const trader of traders) {
    const refused = await placeOrder(trader, restingBuy('0.05'));
    expect(refused.status).toBe(422);
    expect(envelopeOf(refused)).toMatchObject({ code: 'market_not_tradable', message: `Market '${market.id}' is closed.` });
  }
  expect(await openOrders()).toBe(2);

  await sql.query(`UPDATE markets SET status = 'open', updated_at = now() WHERE id = $1`, [market.id]);
  for (const trader of traders) expect((await placed(trader, restingBuy('0.05'))).status).toBe('open');
  expect(await openOrders()).toBe(4);
});

it('checks the next order on every core against a changed tick size', async () => {
  for (const trader of traders) expect((await placed(trader, restingBuy('0.06', polymarket))).status).toBe('open');
  await sql.query(`UPDATE markets SET tick_size = 0.1, updated_at = now() WHERE id = $1`, [polymarket.id]);
  try {
    for (const trader of traders) {
      const refused = await placeOrder(trader, restingBuy('0.06', polymarket));
      expect(refused.status).toBe(400);
      expect(envelopeOf(refused)).toMatchObject({ code: 'invalid_request', param: 'price' });
      expect((await placed(trader, restingBuy('0.1', polymarket))).status).toBe('open');
    }
  } finally {
    await sql.query(`UPDATE markets SET tick_size = 0.01, updated_at = now() WHERE id = $1`, [polymarket.id]);
  }
});
