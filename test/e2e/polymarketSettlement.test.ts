/**
 * Live Polymarket markets settle in our books at their resolution (issue 28's second acceptance
 * item, Polymarket's half), through the public REST API, on two cores sharing one database,
 * against the Polymarket fake (docs/polymarket-fake.md "Resolution"): a YES holder and a NO holder
 * (two wallets) trade a market; it closes (the resting order canceled at the venue and in our
 * records), an outcome is proposed, disputed, and the market resolves the other way. Each core's
 * settlement sweep reads the wallet's redeemable positions (the Data API) and the market's
 * resolution (the CLOB market): the payout is booked at resolution, and the position shows as
 * redeemable until the wallet redeems it on chain, then redeemed. The market channel's
 * `market_resolved` notices (repeated, lost) are not needed: the sweep reads the truth.
 *
 * What must hold: one settlement per subaccount and market on two cores (0 double payouts), none
 * missed, at the final outcome, figures by hand; the venue's record and ours with 0 drift before
 * and after the redemption; a 50/50 resolution pays both sides 0.5.
 */
import { randomBytes } from 'node:crypto';
import type { PolymarketMarketTerms } from '../../core/venues/polymarket/orderWire';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { eventually, newKek, newLiveTrader, placeLive, type LiveTrader } from '../support/kalshiLive';
import { ownDatabase } from '../support/ownDatabase';
import { insertLivePolymarketMarket, newPolymarketTrader, PM_FED, PolymarketMaker } from '../support/polymarketLive';
import { startStack, type Stack } from '../support/stack';

const alice = newPolymarketTrader(); // holds YES
const bob = newPolymarketTrader(); // holds NO
const maker = newPolymarketTrader('100000');

/** A second market of the fake: a condition and its two tokens, as the catalog would hold it. */
const digits = () => BigInt(`0x${randomBytes(31).toString('hex')}`).toString();
const newMarket = (): PolymarketMarketTerms => ({ venueMarketId: `0x${randomBytes(32).toString('hex')}`, yesTokenId: digits(), noTokenId: digits(), negRisk: false, tickSize: '0.01', minSize: '5' });
const SPLIT = newMarket();
const LAGGED = newMarket();
const DATA_API_LAG_MS = 2000;

let fake: PolymarketFake;
let first: Stack;
let second: Stack;
let trader: LiveTrader;
let makerClient: PolymarketMaker;
let aliceSub: string;
let bobSub: string;

const gateway = (stack: Stack) => stack.gateways[0]!;
const get = (path: string, stack = first) => call<Record<string, any>>(gateway(stack), 'GET', path, { key: trader.live });
const marketIdOf = async (market: PolymarketMarketTerms) => (await first.core.db.market.findFirstOrThrow({ where: { venue: 'polymarket', venueMarketId: market.venueMarketId } })).id;
const settlementsOf = async (marketId: string, stack = first) => ok(await get(`/v1/settlements?market_id=${marketId}`, stack), 'settlements').data as Record<string, any>[];
const venueAccount = async (subaccountId: string, stack = first) => ok(await get(`/v1/portfolio?subaccount_id=${subaccountId}`, stack), 'portfolio').data[0].venue_accounts[0];

async function walletSubaccount(name: string, privateKey: string): Promise<string> {
  const id = ok(await call(trader.base, 'POST', '/v1/subaccounts', { key: trader.live, body: { name } }), 'subaccount').id as string;
  ok(await call(trader.base, 'PUT', `/v1/subaccounts/${id}/credentials/polymarket`, { key: trader.dashboard, headers: { 'x-environment': 'live' }, body: { private_key: privateKey } }), 'attach');
  return id;
}

/** The maker offers `quantity` of the token at `price`; `holder` buys it: filled (MATCHED). */
async function bought(holder: string, marketId: string, tokenId: string, side: 'yes' | 'no', price: string, quantity: string) {
  expect(await makerClient.post({ tokenId, side: 'SELL', price, size: quantity })).toMatchObject({ kind: 'answered', body: { success: true } });
  const order = ok(await placeLive(trader, { subaccount_id: holder, market_id: marketId, side, action: 'buy', type: 'limit', price, quantity }), `buy ${side}`);
  expect(order).toMatchObject({ status: 'filled', filled_quantity: quantity });
}

beforeAll(async () => {
  fake = await PolymarketFake.start({ accounts: [maker.account] });
  for (const market of [SPLIT, LAGGED]) {
    for (const [tokenId, outcome] of [[market.yesTokenId, 'Yes'], [market.noTokenId, 'No']] as const) {
      fake.addToken({ tokenId, conditionId: market.venueMarketId, outcome, tickSize: '0.01', minOrderSize: '5', negRisk: false });
    }
  }
  for (const wallet of [alice, bob]) fake.exchange.wallets.seedCollateral(wallet.address, '1000');
  const settings = {
    DATABASE_URL: await ownDatabase('polymarket_settlement'),
    CREDENTIALS_KEK: newKek(),
    POLYMARKET_CLOB_URL: fake.baseUrl,
    POLYMARKET_DATA_API_URL: fake.dataApiUrl,
    POLYMARKET_CHAIN_ID: '80002',
    POLYMARKET_TIMEOUT_MS: '2000',
    LIVE_RECONCILER_ENABLED: 'true',
    LIVE_SETTLEMENT_SWEEP_MS: '1000',
  };
  first = await startStack(testConfig(settings));
  second = await startStack(testConfig(settings));
  trader = await newLiveTrader(first.core.db, gateway(first), 'Polymarket settlement');
  aliceSub = await walletSubaccount('alice', alice.privateKey);
  bobSub = await walletSubaccount('bob', bob.privateKey);
  makerClient = new PolymarketMaker(fake.baseUrl, maker);
}, 60_000);

afterAll(async () => {
  await makerClient?.close();
  await second?.close();
  await first?.close();
  await fake?.close();
});

it('proposed Yes, disputed, resolved No: one settlement each on two cores, redeemable then redeemed, drift 0', async () => {
  const fed = await insertLivePolymarketMarket(first.core.db, PM_FED);
  await bought(aliceSub, fed, PM_FED.yesTokenId, 'yes', '0.45', '10');
  await bought(bobSub, fed, PM_FED.noTokenId, 'no', '0.56', '10');
  // A resting order: the venue cancels it when the market closes, and our records follow.
  const resting = ok(await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '5' }), 'resting');
  expect(resting.status).toBe('open');
  expect(fake.resolutions.close(PM_FED.venueMarketId)).toMatchObject({ ok: true });
  await eventually('the resting order canceled in our records', async () => ((await get(`/v1/orders/${resting.id}`)).body.status === 'canceled' ? true : undefined));
  // An order after the close: the CLOB has no book for it any more, and we answer the documented code.
  const late = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.45', quantity: '5' });
  expect(late.status).toBe(422);
  expect(late.body.error).toMatchObject({ code: 'market_not_tradable' });

  expect(fake.resolutions.propose(PM_FED.venueMarketId, 'Yes')).toMatchObject({ ok: true });
  expect(fake.resolutions.dispute(PM_FED.venueMarketId)).toMatchObject({ ok: true });
  expect(fake.resolutions.resolve(PM_FED.venueMarketId, 'No', { kind: 'repeated', times: 3 })).toMatchObject({ ok: true });
  const settlements = await eventually('both settlements booked', async () => {
    const listed = await settlementsOf(fed, second);
    return listed.length === 2 ? listed : undefined;
  });
  // NO won: alice's 10 YES pay 0 (cost 4.5), bob's 10 NO pay 10 (cost 5.6). The fake charges no fees.
  const bySub = new Map(settlements.map((s) => [s.subaccount_id, s]));
  expect(bySub.get(aliceSub)).toMatchObject({ result: 'no', settlement_value: '0', yes_quantity: '10', cost_basis: '4.5', payout: '0', realized_pnl: '-4.5' });
  expect(bySub.get(bobSub)).toMatchObject({ result: 'no', settlement_value: '0', no_quantity: '10', cost_basis: '5.6', payout: '10', realized_pnl: '4.4' });
  expect(bySub.get(bobSub)!.venue_reference).toBe(`${PM_FED.venueMarketId}:redeemable`);
  expect(ok(await get(`/v1/markets/${fed}`), 'market')).toMatchObject({ status: 'settled', result: 'no' });
  expect(ok(await get(`/v1/positions?subaccount_id=${bobSub}`), 'positions').data).toEqual([]);

  // Before the redemption: the wallet still holds its tokens, redeemable; compared as the settlement, not as a position.
  const before = await venueAccount(bobSub, second);
  expect(before.settlements).toEqual([
    expect.objectContaining({ market_id: fed, redemption: 'redeemable', venue_no_quantity: '10', our_no_quantity: '10', venue_payout: '10', our_payout: '10', quantity_drift: '0', payout_drift: '0' }),
  ]);
  expect(before.positions).toEqual([]);
  expect(before.in_sync).toBe(true);

  // The wallet redeems on chain (the owner's act): pUSD credited, the record is the redemption now.
  expect(fake.dataApi.redeem(bob.address, PM_FED.venueMarketId)).toMatchObject({ status: 200 });
  const after = await eventually('the redemption seen', async () => {
    const account = await venueAccount(bobSub);
    return account.settlements[0]?.redemption === 'redeemed' ? account : undefined;
  });
  expect(after.settlements).toEqual([
    expect.objectContaining({ market_id: fed, redemption: 'redeemed', venue_no_quantity: null, venue_payout: '10', our_payout: '10', quantity_drift: null, payout_drift: '0' }),
  ]);
  expect(after.in_sync).toBe(true);
  expect(await first.core.db.settlement.count({ where: { marketId: fed } })).toBe(2);
  const alices = await venueAccount(aliceSub);
  expect(alices.settlements).toEqual([expect.objectContaining({ redemption: 'redeemable', venue_yes_quantity: '10', venue_payout: '0', quantity_drift: '0', payout_drift: '0' })]);
});

it('a 50/50 resolution whose market_resolved notice is lost: both sides paid 0.5 a share, booked once', async () => {
  const split = await insertLivePolymarketMarket(first.core.db, SPLIT, 'A question resolved 50/50');
  await bought(aliceSub, split, SPLIT.yesTokenId, 'yes', '0.40', '6');
  expect(fake.resolutions.resolve(SPLIT.venueMarketId, 'split', { kind: 'lost' })).toMatchObject({ ok: true });
  const [settlement] = await eventually('the split booked', async () => {
    const listed = await settlementsOf(split);
    return listed.length > 0 ? listed : undefined;
  });
  // 6 x 0.5 = 3 paid against a cost of 6 x 0.40 = 2.4.
  expect(settlement).toMatchObject({ subaccount_id: aliceSub, result: 'scalar', settlement_value: '0.5', yes_quantity: '6', cost_basis: '2.4', payout: '3', realized_pnl: '0.6' });
  const account = await venueAccount(aliceSub, second);
  expect(account.settlements.find((s: { market_id: string }) => s.market_id === split)).toMatchObject({ venue_yes_quantity: '6', venue_payout: '3', payout_drift: '0', quantity_drift: '0' });
  expect(await first.core.db.settlement.count({ where: { marketId: split } })).toBe(1);
});

it('the Data API trailing the chain and the notice late: booked once the wallet’s record shows the resolution, once', async () => {
  const lagged = await insertLivePolymarketMarket(first.core.db, LAGGED, 'A question whose record trails');
  await bought(bobSub, lagged, LAGGED.noTokenId, 'no', '0.30', '5');
  fake.dataApi.setLag(DATA_API_LAG_MS);
  try {
    const resolvedAt = Date.now();
    expect(fake.resolutions.resolve(LAGGED.venueMarketId, 'No', { kind: 'late', ms: DATA_API_LAG_MS * 2 })).toMatchObject({ ok: true });
    // The CLOB shows the winner at once, but the wallet's record does not yet: nothing is booked on a guess.
    expect(await settlementsOf(lagged)).toEqual([]);
    const [settlement] = await eventually('the settlement booked once the record shows it', async () => {
      const listed = await settlementsOf(lagged, second);
      return listed.length > 0 ? listed : undefined;
    }, 30_000);
    expect(Date.now() - resolvedAt).toBeGreaterThanOrEqual(DATA_API_LAG_MS);
    // 5 NO at 0.30 pay 5: realized 5 - 1.5.
    expect(settlement).toMatchObject({ subaccount_id: bobSub, result: 'no', no_quantity: '5', cost_basis: '1.5', payout: '5', realized_pnl: '3.5' });
    expect(await first.core.db.settlement.count({ where: { marketId: lagged } })).toBe(1);
  } finally {
    fake.dataApi.setLag(0);
  }
});

it('the Data API down: the portfolio still answers, the settlements unknown (null) and the account not in sync', async () => {
  fake.injectFault({ fault: { kind: 'server_error', status: 502 }, pathPrefix: '/data-api', times: Infinity });
  try {
    const account = await venueAccount(bobSub);
    expect(account).toMatchObject({ venue: 'polymarket', settlements: null, in_sync: false });
    // Without the records, the 5 NO shares still in the wallet (settled here, not yet redeemed) cannot be told redeemable: they show as drift.
    expect(account.positions).toEqual([expect.objectContaining({ market_id: await marketIdOf(LAGGED), venue_net_yes: '-5', our_net_yes: '0', drift: '-5' })]);
    expect(account.balance).toMatch(/^\d/);
  } finally {
    fake.clearFaults();
  }
  expect((await venueAccount(bobSub)).in_sync).toBe(true);
});
