/**
 * Live Kalshi markets settle in our books at Kalshi's own settlement records (issue 28's second
 * acceptance item, Kalshi's half), through the public REST API, on two cores sharing one database,
 * against the Kalshi fake (docs/kalshi-fake.md "Market lifecycle and settlement"): a YES holder and
 * a NO holder (two Kalshi accounts) trade a market; Kalshi closes it (the resting order canceled at
 * the venue and in our records), determines it, amends the determination after a dispute, and
 * settles it. Each core reads `GET /portfolio/settlements` on its settlement sweep and at each
 * `market_lifecycle_v2` `settled` notice; notices come repeated, lost or late.
 *
 * What must hold: one settlement per subaccount and market whatever the notices and the number of
 * cores (0 double payouts), none missed, at the venue's outcome (the amended one), with figures
 * computed here by hand; the venue's record and ours compare with 0 drift in the portfolio's
 * venue_accounts; positions gone; the day's P&L counts the settlement once.
 */
import { Decimal } from '../../core/domain/decimals';
import { determinationFrom, type NoticeDelivery } from '../../fakes/kalshi/lifecycle';
import { defaultCatalog, type CatalogSeed } from '../../fakes/kalshi/markets';
import { KalshiFake } from '../../fakes/kalshi/server';
import { testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { v2OrderBody } from '../support/kalshiOrders';
import { eventually, FED, liveCoreSettings, liveMarketId, liveSubaccount, MAKER, newLiveTrader, placeLive, type LiveTrader } from '../support/kalshiLive';
import { newKalshiKey } from '../support/kalshiKeys';
import { startStack, type Stack } from '../support/stack';

const alice = newKalshiKey(); // holds YES
const carol = newKalshiKey(); // holds NO
const LOST = 'KXFAKEFED-26DEC-T4.25';
const LATE = 'KXFAKEFED-26DEC-T4.50';
const LATE_MS = 4000;

const base = defaultCatalog();
const catalog: CatalogSeed = {
  series: base.series,
  markets: [...base.markets, ...[LOST, LATE].map((ticker) => ({ ...base.markets[0]!, ticker, title: `Fed funds above ${ticker.slice(-4)}% after December 2026?` }))],
};

let fake: KalshiFake;
let first: Stack;
let second: Stack;
let trader: LiveTrader;
let aliceSub: string;
let carolSub: string;

const gateway = (stack: Stack) => stack.gateways[0]!;
const get = (path: string, stack = first) => call<Record<string, any>>(gateway(stack), 'GET', path, { key: trader.live });
const D = (value: Decimal.Value) => new Decimal(value);

/** The maker rests the other side; `holder` buys `quantity` on `side` at `price` against it, filled. */
async function bought(holder: string, ticker: string, marketId: string, side: 'yes' | 'no', price: string, quantity: string) {
  const yesPrice = side === 'yes' ? price : D(1).sub(price).toFixed(2);
  expect(fake.placeOrderAs(MAKER, v2OrderBody(ticker, { side: side === 'yes' ? 'ask' : 'bid', price: D(yesPrice).toFixed(4), count: D(quantity).toFixed(2) }))).toMatchObject({ status: 201 });
  const order = ok(await placeLive(trader, { subaccount_id: holder, market_id: marketId, side, action: 'buy', type: 'limit', price, quantity }), `buy ${side}`);
  expect(order).toMatchObject({ status: 'filled', filled_quantity: quantity });
  return order as { id: string; fees_paid: string };
}

/** Kalshi closes, determines (and, given `amendTo`, re-determines after a dispute) and settles `ticker`. */
function kalshiSettles(ticker: string, result: 'yes' | 'no', delivery: NoticeDelivery, amendTo?: 'yes' | 'no') {
  const determination = (r: string) => {
    const parsed = determinationFrom({ result: r });
    if (typeof parsed === 'string') throw new Error(parsed);
    return parsed;
  };
  expect(fake.exchange.determineMarket(ticker, determination(result))).toMatchObject({ ok: true });
  if (amendTo) {
    expect(fake.exchange.disputeMarket(ticker)).toMatchObject({ ok: true });
    expect(fake.exchange.determineMarket(ticker, determination(amendTo))).toMatchObject({ ok: true, market: { status: 'amended', result: amendTo } });
  }
  const settled = fake.exchange.settleMarket(ticker, delivery);
  expect(settled).toMatchObject({ ok: true });
  return settled;
}

const settlementsOf = async (marketId: string, stack = first) => ok(await get(`/v1/settlements?market_id=${marketId}`, stack), 'settlements').data as Record<string, any>[];
const countInDb = async (marketId: string) => first.core.db.settlement.count({ where: { marketId } });
const venueAccount = async (subaccountId: string, stack = first) => ok(await get(`/v1/portfolio?subaccount_id=${subaccountId}`, stack), 'portfolio').data[0].venue_accounts[0];

beforeAll(async () => {
  fake = await KalshiFake.start({
    environment: 'production',
    catalog,
    accounts: [
      { userId: 'user-alice', balanceDollars: '1000.00', keys: [{ keyId: alice.keyId, publicKeyPem: alice.publicKeyPem }] },
      { userId: 'user-carol', balanceDollars: '1000.00', keys: [{ keyId: carol.keyId, publicKeyPem: carol.publicKeyPem }] },
      { userId: MAKER, balanceDollars: '100000.00' },
    ],
    pingIntervalMs: 200,
  });
  // Two cores on one database, each with the live reconciler and its settlement sweep.
  const settings = await liveCoreSettings('kalshi_settlement', fake, { LIVE_RECONCILER_ENABLED: 'true', LIVE_SETTLEMENT_SWEEP_MS: '1500', KALSHI_TIMEOUT_MS: '2000' });
  first = await startStack(testConfig(settings));
  second = await startStack(testConfig(settings));
  trader = await newLiveTrader(first.core.db, gateway(first), 'Kalshi settlement');
  aliceSub = await liveSubaccount(trader, 'alice', { key: alice, environment: 'production' });
  carolSub = await liveSubaccount(trader, 'carol', { key: carol, environment: 'production' });
}, 60_000);

afterAll(async () => {
  await second?.close();
  await first?.close();
  await fake?.close();
});

it('a determination amended after a dispute, settled notices repeated eight times to two cores: one settlement each, at the amended result, drift 0', async () => {
  const fed = await liveMarketId(first.core.db, FED);
  const yes = await bought(aliceSub, FED, fed, 'yes', '0.45', '10');
  const no = await bought(carolSub, FED, fed, 'no', '0.56', '10');
  // A resting order: Kalshi cancels it at the close, and our records follow.
  const resting = ok(await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '5' }), 'resting');
  expect(resting.status).toBe('open');
  expect(fake.exchange.closeMarket(FED)).toMatchObject({ ok: true, market: { status: 'closed' } });
  await eventually('the resting order canceled in our records', async () => ((await get(`/v1/orders/${resting.id}`)).body.status === 'canceled' ? true : undefined));
  // An order after the close: Kalshi refuses it (market_closed), and so do we, with the documented code.
  const late = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.45', quantity: '1' });
  expect(late.status).toBe(422);
  expect(late.body.error).toMatchObject({ code: 'market_not_tradable' });

  kalshiSettles(FED, 'yes', { kind: 'repeated', times: 8 }, 'no');
  const settlements = await eventually('both settlements booked', async () => {
    const listed = await settlementsOf(fed, second);
    return listed.length === 2 ? listed : undefined;
  });
  // NO won (the amended result): alice's 10 YES pay 0, carol's 10 NO pay 10; costs 4.5 and 5.6.
  const bySub = new Map(settlements.map((s) => [s.subaccount_id, s]));
  expect(bySub.get(aliceSub)).toMatchObject({ result: 'no', settlement_value: '0', yes_quantity: '10', no_quantity: '0', cost_basis: '4.5', payout: '0', fee: '0', realized_pnl: '-4.5' });
  expect(bySub.get(carolSub)).toMatchObject({ result: 'no', settlement_value: '0', yes_quantity: '0', no_quantity: '10', cost_basis: '5.6', payout: '10', fee: '0', realized_pnl: '4.4' });
  const record = fake.exchange.listSettlements('user-carol', { ticker: FED })[0] as { settled_time: string };
  expect(bySub.get(carolSub)!.venue_reference).toBe(`${FED}@${record.settled_time}`);
  expect(ok(await get(`/v1/markets/${fed}`), 'market')).toMatchObject({ status: 'settled', result: 'no', settlement_value: '0' });

  // Kalshi's records and ours: 0 drift, the payouts equal (carol was paid $10.00, alice nothing).
  const carolAccount = await venueAccount(carolSub, second);
  expect(carolAccount.settlements).toEqual([
    expect.objectContaining({ market_id: fed, venue_market_id: FED, result: 'no', venue_no_quantity: '10', our_no_quantity: '10', venue_payout: '10', our_payout: '10', quantity_drift: '0', payout_drift: '0' }),
  ]);
  expect(carolAccount.in_sync).toBe(true);
  expect(carolAccount.positions).toEqual([]);
  const aliceAccount = await venueAccount(aliceSub);
  expect(aliceAccount.settlements).toEqual([expect.objectContaining({ venue_yes_quantity: '10', venue_payout: '0', our_payout: '0', quantity_drift: '0', payout_drift: '0' })]);
  expect(aliceAccount.in_sync).toBe(true);

  // Positions gone; the day's P&L counts the settlement once: its realized P&L less the fill's fee.
  expect(ok(await get(`/v1/positions?subaccount_id=${carolSub}&market_id=${fed}`), 'positions').data).toEqual([]);
  const today = new Date().toISOString().slice(0, 10);
  const [day] = ok(await get(`/v1/risk/pnl_history?subaccount_id=${carolSub}&from=${today}&to=${today}`), 'pnl').data;
  expect(day.realized_pnl).toBe(D('4.4').sub(no.fees_paid).toFixed());
  expect(D(yes.fees_paid).gt(0)).toBe(true);
  // Every notice handled, on both cores: still one settlement each.
  expect(await countInDb(fed)).toBe(2);
});

it('a settled notice lost: the sweep finds the settlement in Kalshi’s records all the same', async () => {
  const lost = await liveMarketId(first.core.db, LOST);
  await bought(aliceSub, LOST, lost, 'yes', '0.45', '4');
  kalshiSettles(LOST, 'yes', { kind: 'lost' });
  const [settlement] = await eventually('the settlement booked without its notice', async () => {
    const listed = await settlementsOf(lost);
    return listed.length > 0 ? listed : undefined;
  });
  expect(settlement).toMatchObject({ subaccount_id: aliceSub, result: 'yes', yes_quantity: '4', cost_basis: '1.8', payout: '4', realized_pnl: '2.2' });
  expect((await venueAccount(aliceSub)).in_sync).toBe(true);
  expect(await countInDb(lost)).toBe(1);
});

it('a settled notice arriving late, after the sweep booked it, books nothing more', async () => {
  const late = await liveMarketId(first.core.db, LATE);
  await bought(carolSub, LATE, late, 'no', '0.56', '3');
  const settledAt = Date.now();
  kalshiSettles(LATE, 'no', { kind: 'late', ms: LATE_MS });
  await eventually('the settlement booked before its notice', async () => ((await settlementsOf(late)).length > 0 ? true : undefined));
  // The notice comes at its time (the fake sends it LATE_MS after the settlement); both cores then look again.
  await eventually('the late notice sent', async () => (Date.now() > settledAt + LATE_MS + 1500 ? true : undefined), LATE_MS + 5000, 100);
  const [settlement] = await settlementsOf(late);
  expect(settlement).toMatchObject({ subaccount_id: carolSub, result: 'no', no_quantity: '3', cost_basis: '1.68', payout: '3', realized_pnl: '1.32' });
  expect(await countInDb(late)).toBe(1);
  expect((await venueAccount(carolSub)).settlements.map((s: { venue_market_id: string; payout_drift: string }) => [s.venue_market_id, s.payout_drift])).toEqual([
    [FED, '0'],
    [LATE, '0'],
  ]);
});
