/**
 * Reversing a fill whose venue trade FAILED (Polymarket CLOB V2: a trade counts as a fill when
 * MATCHED and can still end FAILED): the fill stays, marked reversed; the position, the realized
 * P&L of later fills, the daily P&L, the order's figures and status and a test subaccount's cash are
 * what they would be without it; a second receipt records the reversal. Fills arrive the way a live
 * adapter delivers them (`recordNewFills`, the stream's and the sweep's path) for orders recorded
 * as placed; reads go through the REST API. On PostgreSQL and PGlite; the races (a lock held by a
 * second connection) on PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { Config } from '../../core/config';
import type { Db } from '../../core/db/prismaClient';
import { newId } from '../../core/domain/ids';
import { replayFills } from '../../core/domain/positionAccounting';
import { complexOrderExecutions } from '../../core/services/complexOrders/executions';
import { reverseFailedFills, reverseFill } from '../../core/services/orders/fillReversals';
import { recordFillsAndFailures, recordNewFills } from '../../core/services/reconciliation/liveReconciler';
import type { VenueFill } from '../../core/venues/venue';
import { BACKENDS } from '../support/backends';
import { buildWorkspace } from '../support/factories';
import { databaseUrl, testConfig } from '../support/env';
import { call } from '../support/http';
import { CoreLog } from '../support/retryingClients';
import { startStack, type Stack } from '../support/stack';
import { canonicalHash, createSubaccount, D, HIGH_RATE_LIMIT, marketOf, type FillView, type OrderView, type Trader } from './helpers';

let stack: Stack;
let db: Db;
let live: Trader;
let test: Trader;
let liveMarket: { id: string; venueMarketId: string };

/** What the recording of fills and the reversals log. */
const log = new CoreLog();
const logger = log.logger;
const BLOCKED = 'a fill whose venue trade failed cannot be reversed yet';
const NOT_RECORDED = "could not record an order's fills";

const FAILED = { reason: 'trade FAILED', reportedAt: new Date('2026-11-25T01:00:00Z') };
const EXECUTED_AT = '2026-11-24T15:00:00.000Z';
const DAY = '2026-11-24';

/** A stack on `config`'s database with a live and a test trader and a live Polymarket condition. */
async function openStack(config: Config) {
  stack = await startStack(config);
  db = stack.core.db;
  const trader = async (environment: 'test' | 'live', name: string): Promise<Trader> => {
    const { workspace, key, secret } = await buildWorkspace(db, { environment, rateLimit: HIGH_RATE_LIMIT, name });
    return { base: stack.gateways[0]!, secret, keyId: key.id, workspaceId: workspace.id };
  };
  live = await trader('live', 'Reversals live');
  test = await trader('test', 'Reversals test');
  // A live Polymarket condition as the Gamma catalog stores it (two outcome tokens).
  const condition = `0x${randomBytes(32).toString('hex')}`;
  const market = await db.market.create({
    data: {
      id: newId('market'), environment: 'live', venue: 'polymarket', venueMarketId: condition, title: 'Will the reversal hold?',
      category: 'test', tickSize: '0.01', minSize: '5', yesTokenId: '1111', noTokenId: '2222',
    },
  });
  liveMarket = { id: market.id, venueMarketId: market.venueMarketId };
}

type Venue = 'polymarket' | 'sim_polymarket';

/** A working order as the placement recorded it (the venue accepted it and it rests). */
async function restingOrder(trader: Trader, subaccountId: string, market: { id: string }, venue: Venue, action: 'buy' | 'sell', price: string, quantity: string) {
  const id = newId('order');
  const sub = await db.subaccount.findUniqueOrThrow({ where: { id: subaccountId } });
  await db.order.create({
    data: {
      id, workspaceId: trader.workspaceId, environment: sub.environment, subaccountId, marketId: market.id, venue, side: 'yes', action,
      type: 'limit', timeInForce: 'gtc', price, quantity, clientOrderId: id, venueOrderId: `0x${id}`, status: 'open',
    },
  });
  return id;
}

/** The venue's trade for our order, MATCHED: how an adapter hands it to the recording of fills. */
function trade(orderId: string, venueMarketId: string, action: 'buy' | 'sell', price: string, quantity: string, fee: string): VenueFill {
  return {
    venueFillId: `trade-${newId('fill')}`, venueOrderId: `0x${orderId}`, clientOrderId: orderId, venueMarketId,
    side: 'yes', action, price, quantity, fee, isTaker: true, executedAt: EXECUTED_AT,
  };
}

/** Places (records) an order and fills it in full with one trade; returns the trade. */
async function filledOrder(trader: Trader, subaccountId: string, action: 'buy' | 'sell', price: string, quantity: string, fee: string, venue: Venue = 'polymarket', market = liveMarket) {
  const orderId = await restingOrder(trader, subaccountId, market, venue, action, price, quantity);
  const fill = trade(orderId, market.venueMarketId, action, price, quantity, fee);
  expect(await recordNewFills(db, venue, [fill], logger)).toBe(1);
  return { orderId, fill };
}

const get = async <T>(trader: Trader, path: string): Promise<T> => {
  const response = await call<T>(trader.base, 'GET', path, { key: trader.secret });
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
};
const orderOf = (trader: Trader, id: string) => get<OrderView>(trader, `/v1/orders/${id}`);
const fillsOf = async (trader: Trader, orderId: string) =>
  (await get<{ data: (FillView & { status: string; reversed_at: string | null; reversal_reason: string | null; realized_pnl: string })[] }>(trader, `/v1/fills?order_id=${orderId}`)).data;
const receiptsOf = async (trader: Trader, orderId: string) =>
  (await get<{ data: { id: string; content: Record<string, unknown>; content_hash: string }[] }>(trader, `/v1/receipts?order_id=${orderId}`)).data;
const pnlDay = async (trader: Trader, subaccountId: string) =>
  (await get<{ data: { date: string; realized_pnl: string; fees: string; fills: number; volume: string }[] }>(trader, `/v1/risk/pnl_history?subaccount_id=${subaccountId}&from=${DAY}&to=${DAY}`)).data[0]!;

/** Everything a fill moves, as stored: for comparing a subaccount before and after. */
async function ledgerOf(subaccountId: string) {
  const [positions, daily, orders, fills, receipts, subaccount] = await Promise.all([
    db.position.findMany({ where: { subaccountId }, orderBy: [{ marketId: 'asc' }, { side: 'asc' }], select: { quantity: true, costBasis: true, realizedPnl: true } }),
    db.dailyPnl.findMany({ where: { subaccountId }, select: { day: true, realizedPnl: true, fees: true, fillCount: true, volume: true } }),
    db.order.findMany({ where: { subaccountId }, orderBy: { id: 'asc' }, select: { status: true, filledQuantity: true, filledNotional: true, averageFillPrice: true, feesPaid: true } }),
    db.fill.findMany({ where: { subaccountId }, orderBy: { id: 'asc' }, select: { realizedPnl: true, reversedAt: true } }),
    db.receipt.count({ where: { subaccountId } }),
    db.subaccount.findUniqueOrThrow({ where: { id: subaccountId }, select: { cashBalance: true } }),
  ]);
  return JSON.parse(JSON.stringify({ positions, daily, orders, fills, receipts, cash: subaccount.cashBalance }));
}

async function positionOf(subaccountId: string, marketId = liveMarket.id) {
  const row = await db.position.findUniqueOrThrow({ where: { subaccountId_marketId_side: { subaccountId, marketId, side: 'yes' } } });
  // The average cost of the assertions, from the stored cost basis.
  const averageCost = row.quantity.isZero() ? '0' : row.costBasis.div(row.quantity).toFixed();
  return { quantity: row.quantity.toFixed(), averageCost, realizedPnl: row.realizedPnl.toFixed() };
}

/** Waits until `count` statements of this database wait for a lock. */
async function lockWaiters(holder: Client, count: number) {
  for (let i = 0; i < 500; i += 1) {
    await holder.query('SELECT pg_stat_clear_snapshot()'); // the view is read once per transaction otherwise
    const { rows } = await holder.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
    if (rows[0].n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never ${count} statements waiting for a lock`);
}

describe.each(BACKENDS)('on %s', (_backend, configOf) => {
  beforeAll(() => openStack(configOf()));
  afterAll(() => stack.close());

  describe('a buy whose trade fails', () => {
    it('leaves no position, no P&L and an unfilled order; the fill stays, reversed; two receipts keep both', async () => {
      const sa = await createSubaccount(live, 'one buy');
      const { orderId, fill } = await filledOrder(live, sa, 'buy', '0.40', '10', '0.02');
      expect(await orderOf(live, orderId)).toMatchObject({ status: 'filled', filled_quantity: '10', average_fill_price: '0.4', fees_paid: '0.02' });
      expect(await pnlDay(live, sa)).toMatchObject({ realized_pnl: '-0.02', fees: '0.02', fills: 1, volume: '4' });

      const result = await reverseFill(db, 'polymarket', fill.venueFillId, FAILED);
      expect(result).toMatchObject({ outcome: 'reversed', orderId });

      // Matched in full, then the trade failed: the venue is done with the order, nothing of it stands.
      expect(await orderOf(live, orderId)).toMatchObject({
        status: 'canceled', filled_quantity: '0', remaining_quantity: '0', average_fill_price: null, fees_paid: '0',
      });
      const [listed] = await fillsOf(live, orderId);
      expect(listed).toMatchObject({ venue_fill_id: fill.venueFillId, quantity: '10', price: '0.4', status: 'reversed', reversal_reason: 'trade FAILED' });
      expect(Date.parse(listed!.reversed_at!)).toBeGreaterThan(0);
      expect(await positionOf(sa)).toMatchObject({ quantity: '0', realizedPnl: '0' });
      expect((await get<{ data: unknown[] }>(live, `/v1/positions?subaccount_id=${sa}`)).data).toEqual([]);
      expect(await pnlDay(live, sa)).toMatchObject({ realized_pnl: '0', fees: '0', fills: 0, volume: '0' });

      const receipts = await receiptsOf(live, orderId); // newest first
      expect(receipts).toHaveLength(2);
      const [reversal, original] = receipts as [(typeof receipts)[0], (typeof receipts)[0]];
      expect(original.content).toMatchObject({ order_status: 'filled', quantity: '10', fills: [{ venue_fill_id: fill.venueFillId }] });
      expect(reversal.content).toMatchObject({
        kind: 'fill_reversal', reverses_receipt_id: original.id, reason: 'trade FAILED', reported_at: FAILED.reportedAt.toISOString(),
        reversed_fill: { venue_fill_id: fill.venueFillId, action: 'buy', price: '0.4', quantity: '10', fee: '0.02', executed_at: EXECUTED_AT },
        order_status: 'canceled', order_filled_quantity: '0',
      });
      for (const receipt of receipts) expect(canonicalHash(receipt.content)).toBe(receipt.content_hash);
    });

    it('puts a test subaccount’s simulated cash back', async () => {
      const simMarket = await marketOf(db, 'sim_polymarket', 'pm-ai-imo-gold');
      const sa = await createSubaccount(test, 'cash', '100');
      const { fill } = await filledOrder(test, sa, 'buy', '0.40', '10', '0.02', 'sim_polymarket', simMarket);
      expect((await db.subaccount.findUniqueOrThrow({ where: { id: sa } })).cashBalance.toFixed()).toBe('95.98');
      await reverseFill(db, 'sim_polymarket', fill.venueFillId, FAILED);
      expect((await db.subaccount.findUniqueOrThrow({ where: { id: sa } })).cashBalance.toFixed()).toBe('100');
    });
  });

  describe('an earlier buy fails after a sell', () => {
    it('recomputes the average cost and the sell’s realized P&L as if the buy never happened', async () => {
      const sa = await createSubaccount(live, 'three fills');
      const first = await filledOrder(live, sa, 'buy', '0.40', '10', '0.01');
      const second = await filledOrder(live, sa, 'buy', '0.60', '10', '0.01');
      const sell = await filledOrder(live, sa, 'sell', '0.70', '5', '0.01');
      // Average 0.50: the sell realized (0.70 - 0.50) x 5 - 0.01.
      expect((await fillsOf(live, sell.orderId))[0]!.realized_pnl).toBe('0.99');
      expect(await positionOf(sa)).toMatchObject({ quantity: '15', averageCost: '0.5', realizedPnl: '0.97' });

      expect(await reverseFill(db, 'polymarket', first.fill.venueFillId, FAILED)).toMatchObject({ outcome: 'reversed' });

      // Without the first buy: 10 at 0.60, the sell realizes (0.70 - 0.60) x 5 - 0.01 = 0.49.
      expect((await fillsOf(live, sell.orderId))[0]!.realized_pnl).toBe('0.49');
      expect(await positionOf(sa)).toMatchObject({ quantity: '5', averageCost: '0.6', realizedPnl: '0.48' });
      expect(await pnlDay(live, sa)).toMatchObject({ realized_pnl: '0.48', fees: '0.02', fills: 2, volume: '9.5' });
      expect(await orderOf(live, second.orderId)).toMatchObject({ status: 'filled', filled_quantity: '10' });

      // The same as a subaccount where the first buy never was.
      const control = await createSubaccount(live, 'control');
      await filledOrder(live, control, 'buy', '0.60', '10', '0.01');
      await filledOrder(live, control, 'sell', '0.70', '5', '0.01');
      const [after, expected] = [await ledgerOf(sa), await ledgerOf(control)];
      expect(after.positions).toEqual(expected.positions);
      expect(after.daily).toEqual(expected.daily);
      expect(after.fills.filter((f: { reversedAt: string | null }) => f.reversedAt === null)).toEqual(expected.fills);
    });

    it('is refused, changing nothing, when a later sell would then sell more than was held', async () => {
      const sa = await createSubaccount(live, 'oversold');
      const buy = await filledOrder(live, sa, 'buy', '0.40', '10', '0');
      await filledOrder(live, sa, 'sell', '0.70', '5', '0');
      const before = await ledgerOf(sa);
      const result = await reverseFill(db, 'polymarket', buy.fill.venueFillId, FAILED);
      expect(result).toMatchObject({ outcome: 'blocked', reason: expect.stringMatching(/exceeds the 0 held/) });
      expect(await ledgerOf(sa)).toEqual(before);
    });
  });

  describe('fills recorded by several cores', () => {
    it('are replayed in the order they were recorded, not in the order of their ids (ULIDs, monotonic per process only)', async () => {
      const sa = await createSubaccount(live, 'two cores');
      const first = await filledOrder(live, sa, 'buy', '0.40', '10', '0');
      const sell = await filledOrder(live, sa, 'sell', '0.70', '10', '0');
      const second = await filledOrder(live, sa, 'buy', '0.60', '10', '0');
      const failing = await filledOrder(live, sa, 'buy', '0.50', '1', '0');
      // The second buy as a core whose clock lags would have named it: an id sorting before the sell's.
      const [firstRow, sellRow] = await Promise.all([first, sell].map(({ fill }) => db.fill.findUniqueOrThrow({ where: { venue_venueFillId: { venue: 'polymarket', venueFillId: fill.venueFillId } } })));
      const laggingId = `${firstRow!.id}z`;
      expect(laggingId < sellRow!.id).toBe(true);
      await db.$executeRaw`UPDATE fills SET id = ${laggingId} WHERE venue = 'polymarket' AND venue_fill_id = ${second.fill.venueFillId}`;
      expect(await positionOf(sa)).toMatchObject({ quantity: '11', realizedPnl: '3' });

      expect(await reverseFill(db, 'polymarket', failing.fill.venueFillId, FAILED)).toMatchObject({ outcome: 'reversed' });
      // As recorded: the sell closed the first buy at 0.40 (realized 3), the second buy stands at 0.60.
      // (In id order the sell would have closed half of both, at 0.50, realizing 2.)
      expect(await positionOf(sa)).toEqual({ quantity: '10', averageCost: '0.6', realizedPnl: '3' });
      expect((await fillsOf(live, sell.orderId))[0]!.realized_pnl).toBe('3');
    });
  });

  describe('a buy and the later sell of it fail in one report', () => {
    it('are both reversed by the one call, whatever their order in it: the buy, blocked by the sell, is tried again once the sell is reversed', async () => {
      for (const order of ['buy first', 'sell first'] as const) {
        const sa = await createSubaccount(live, `both failed, ${order}`);
        const buy = await filledOrder(live, sa, 'buy', '0.40', '10', '0.01');
        const sell = await filledOrder(live, sa, 'sell', '0.70', '5', '0.01');
        const report = order === 'buy first' ? [buy.fill, sell.fill] : [sell.fill, buy.fill];
        const from = log.linesStartingWith(BLOCKED).length;
        expect(await reverseFailedFills(db, 'polymarket', report, FAILED, logger)).toEqual({ reversed: 2, already_reversed: 0, not_recorded: 0, blocked: 0 });
        expect(await positionOf(sa)).toEqual({ quantity: '0', averageCost: '0', realizedPnl: '0' });
        expect(await pnlDay(live, sa)).toMatchObject({ realized_pnl: '0', fees: '0', fills: 0, volume: '0' });
        for (const orderId of [buy.orderId, sell.orderId]) expect(await orderOf(live, orderId)).toMatchObject({ status: 'canceled', filled_quantity: '0' });
        // Nothing is left blocked, so nothing was reported blocked.
        expect(log.linesStartingWith(BLOCKED).slice(from)).toEqual([]);
      }
    });

    it('a buy blocked by a sell that did not fail stays blocked, reported once', async () => {
      const sa = await createSubaccount(live, 'still blocked');
      const buy = await filledOrder(live, sa, 'buy', '0.40', '10', '0');
      await filledOrder(live, sa, 'sell', '0.70', '5', '0');
      const from = log.linesStartingWith(BLOCKED).length;
      expect(await reverseFailedFills(db, 'polymarket', [buy.fill], FAILED, logger)).toEqual({ reversed: 0, already_reversed: 0, not_recorded: 0, blocked: 1 });
      expect(log.linesStartingWith(BLOCKED).slice(from)).toHaveLength(1);
    });
  });

  describe('idempotency and ordering', () => {
    it('a second report of the same failed trade changes nothing', async () => {
      const sa = await createSubaccount(live, 'twice');
      await filledOrder(live, sa, 'buy', '0.30', '4', '0.01');
      const { fill } = await filledOrder(live, sa, 'buy', '0.50', '6', '0.01');
      expect(await reverseFill(db, 'polymarket', fill.venueFillId, FAILED)).toMatchObject({ outcome: 'reversed' });
      const once = await ledgerOf(sa);
      expect(await reverseFill(db, 'polymarket', fill.venueFillId, { ...FAILED, reportedAt: new Date() })).toMatchObject({ outcome: 'already_reversed' });
      expect(await ledgerOf(sa)).toEqual(once);
      expect(once.receipts).toBe(3);
      // And the fill reported again by the venue (the sweep) is not recorded a second time.
      expect(await recordNewFills(db, 'polymarket', [fill], logger)).toBe(0);
      expect(await ledgerOf(sa)).toEqual(once);
    });

    it('a failure reported before its fill is recorded: the fill is never counted', async () => {
      const sa = await createSubaccount(live, 'overtaken');
      const orderId = await restingOrder(live, sa, liveMarket, 'polymarket', 'buy', '0.40', '10');
      const fill = trade(orderId, liveMarket.venueMarketId, 'buy', '0.40', '10', '0.02');
      expect(await reverseFill(db, 'polymarket', fill.venueFillId, FAILED)).toEqual({ outcome: 'not_recorded', alreadyReported: false });
      expect(await reverseFill(db, 'polymarket', fill.venueFillId, FAILED)).toEqual({ outcome: 'not_recorded', alreadyReported: true });
      expect(await recordNewFills(db, 'polymarket', [fill], logger)).toBe(0);
      expect(await fillsOf(live, orderId)).toEqual([]);
      expect(await orderOf(live, orderId)).toMatchObject({ status: 'open', filled_quantity: '0' });
      expect(await ledgerOf(sa)).toMatchObject({ positions: [], daily: [], fills: [], receipts: 0 });
    });

    it('a reversal on one subaccount leaves another’s fills of the same market alone', async () => {
      const [mine, theirs] = [await createSubaccount(live, 'mine'), await createSubaccount(live, 'theirs')];
      const { fill } = await filledOrder(live, mine, 'buy', '0.40', '10', '0.01');
      await filledOrder(live, theirs, 'buy', '0.40', '10', '0.01');
      await filledOrder(live, theirs, 'sell', '0.45', '3', '0.01');
      const before = await ledgerOf(theirs);
      await reverseFill(db, 'polymarket', fill.venueFillId, FAILED);
      expect(await ledgerOf(theirs)).toEqual(before);
      expect(await positionOf(mine)).toMatchObject({ quantity: '0' });
    });
  });

  describe('one listing of the venue’s trades', () => {
    it('an order whose fills cannot be recorded is logged (order id and reason) and skipped; the later orders of the listing are recorded', async () => {
      const [sa, other] = [await createSubaccount(live, 'stuck sell'), await createSubaccount(live, 'next in line')];
      const buy = await filledOrder(live, sa, 'buy', '0.40', '10', '0');
      expect(await reverseFill(db, 'polymarket', buy.fill.venueFillId, FAILED)).toMatchObject({ outcome: 'reversed' });
      // A sell of what the failed buy would have held, then another subaccount's buy, in one listing.
      const sellOrder = await restingOrder(live, sa, liveMarket, 'polymarket', 'sell', '0.70', '5');
      const laterOrder = await restingOrder(live, other, liveMarket, 'polymarket', 'buy', '0.50', '4');
      const from = log.linesStartingWith(NOT_RECORDED).length;
      const listing = [trade(sellOrder, liveMarket.venueMarketId, 'sell', '0.70', '5', '0'), trade(laterOrder, liveMarket.venueMarketId, 'buy', '0.50', '4', '0')];
      expect(await recordNewFills(db, 'polymarket', listing, logger)).toBe(1);
      expect(await orderOf(live, laterOrder)).toMatchObject({ status: 'filled', filled_quantity: '4' });
      expect(await orderOf(live, sellOrder)).toMatchObject({ status: 'open', filled_quantity: '0' });
      const warned = log.linesStartingWith(NOT_RECORDED).slice(from);
      expect(warned).toEqual([expect.objectContaining({ orderId: sellOrder, err: expect.objectContaining({ message: 'sell of 5 exceeds the position of 0' }) })]);
      expect(JSON.stringify(warned)).not.toMatch(/\bat .*\.(ts|js):\d+/); // no stack trace
    });

    it('the failures of a listing go first: a buy that failed is reversed before the listing’s sell of it, and a trade listed filled and failed is never recorded', async () => {
      const sa = await createSubaccount(live, 'listing order');
      const buy = await filledOrder(live, sa, 'buy', '0.40', '10', '0');
      const sellOrder = await restingOrder(live, sa, liveMarket, 'polymarket', 'sell', '0.70', '5');
      const sell = trade(sellOrder, liveMarket.venueMarketId, 'sell', '0.70', '5', '0');
      // Recorded first, the sell would block the buy's reversal (it would then sell more than was held).
      expect(await recordFillsAndFailures(db, 'polymarket', { fills: [sell], failed: [buy.fill] }, logger)).toEqual({ recorded: 0, reversed: 1 });
      expect(await orderOf(live, buy.orderId)).toMatchObject({ status: 'canceled', filled_quantity: '0' });
      expect(await orderOf(live, sellOrder)).toMatchObject({ status: 'open', filled_quantity: '0' });
      expect(await positionOf(sa)).toMatchObject({ quantity: '0', realizedPnl: '0' });

      // MATCHED then FAILED in one batch of the user channel: no fill row, no receipt.
      const both = await restingOrder(live, sa, liveMarket, 'polymarket', 'buy', '0.30', '2');
      const failing = trade(both, liveMarket.venueMarketId, 'buy', '0.30', '2', '0');
      expect(await recordFillsAndFailures(db, 'polymarket', { fills: [failing], failed: [failing] }, logger)).toEqual({ recorded: 0, reversed: 0 });
      expect(await fillsOf(live, both)).toEqual([]);
      expect(await receiptsOf(live, both)).toEqual([]);
    });
  });

  describe('a reversed child fill of a complex order', () => {
    it('no longer counts in what the complex order executed', async () => {
      const sa = await createSubaccount(live, 'complex');
      const complex = await db.complexOrder.create({
        data: {
          id: newId('complexOrder'), workspaceId: live.workspaceId, environment: 'live', subaccountId: sa, marketId: liveMarket.id, side: 'yes',
          action: 'buy', strategy: 'sweep', quantity: '20', status: 'completed', prediction: {}, predictedFilledQuantity: '20', predictedFees: '0',
        },
      });
      const [a, b] = [
        await restingOrder(live, sa, liveMarket, 'polymarket', 'buy', '0.40', '10'),
        await restingOrder(live, sa, liveMarket, 'polymarket', 'buy', '0.50', '10'),
      ];
      await db.order.updateMany({ where: { id: { in: [a, b] } }, data: { complexOrderId: complex.id } });
      const failing = trade(a, liveMarket.venueMarketId, 'buy', '0.40', '10', '0.01');
      await recordNewFills(db, 'polymarket', [failing, trade(b, liveMarket.venueMarketId, 'buy', '0.50', '10', '0.01')], logger);
      expect((await complexOrderExecutions(db, [complex.id])).get(complex.id)).toEqual({ filledQuantity: '20', averageFillPrice: '0.45', feesPaid: '0.02' });
      await reverseFill(db, 'polymarket', failing.venueFillId, FAILED);
      expect((await complexOrderExecutions(db, [complex.id])).get(complex.id)).toEqual({ filledQuantity: '10', averageFillPrice: '0.5', feesPaid: '0.01' });
    });
  });
});

// The races hold a lock from a second connection: PostgreSQL only (PGlite runs one session).
describe('on PostgreSQL', () => {
  beforeAll(() => openStack(testConfig()));
  afterAll(() => stack.close());

  describe('a reversal racing a new fill of the same position', () => {
    // Both wait on the subaccount's lock held by another connection, then run in either order; the
    // end is the same either way and equals the position replayed from the fills that stand.
    it.each([0, 1, 2, 3, 4, 5])('ends consistent (round %i)', async (round) => {
      const sa = await createSubaccount(live, `race ${round}`);
      const failing = await filledOrder(live, sa, 'buy', '0.40', '10', '0.01');
      await filledOrder(live, sa, 'buy', '0.60', '10', '0.01');
      const sellOrder = await restingOrder(live, sa, liveMarket, 'polymarket', 'sell', '0.70', '5');
      const sell = trade(sellOrder, liveMarket.venueMarketId, 'sell', '0.70', '5', '0.01');

      const holder = new Client({ connectionString: databaseUrl() });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT id FROM subaccounts WHERE id = $1 FOR UPDATE', [sa]);
        const reversal = () => reverseFill(db, 'polymarket', failing.fill.venueFillId, FAILED);
        const recording = () => recordNewFills(db, 'polymarket', [sell], logger);
        const both = round % 2 === 0 ? Promise.all([reversal(), recording()]) : Promise.all([recording(), reversal()]).then(([n, r]) => [r, n] as const);
        await lockWaiters(holder, 2);
        await holder.query('COMMIT');
        const [reversed, recorded] = await both;
        expect(reversed).toMatchObject({ outcome: 'reversed' });
        expect(recorded).toBe(1);
      } finally {
        await holder.end();
      }

      // Whichever ran first: 10 at 0.60 stand, the sell realized (0.70 - 0.60) x 5 - 0.01.
      expect(await positionOf(sa)).toMatchObject({ quantity: '5', averageCost: '0.6', realizedPnl: '0.48' });
      const standing = await db.fill.findMany({ where: { subaccountId: sa, reversedAt: null }, orderBy: { recordedSeq: 'asc' } });
      const replay = replayFills(standing.map((f) => ({ action: f.action, price: D(f.price.toFixed()), quantity: D(f.quantity.toFixed()), fee: D(f.fee.toFixed()) })));
      if (!replay.ok) throw new Error('the standing fills oversell');
      expect(replay.position.quantity.toFixed()).toBe('5');
      expect(standing.map((f) => f.realizedPnl.toFixed())).toEqual(replay.effects.map((e) => e.realizedPnl.toFixed()));
      expect(await pnlDay(live, sa)).toMatchObject({ realized_pnl: '0.48', fees: '0.02', fills: 2, volume: '9.5' });
      expect(await orderOf(live, failing.orderId)).toMatchObject({ status: 'canceled', filled_quantity: '0' });
      expect(await orderOf(live, sellOrder)).toMatchObject({ status: 'filled', filled_quantity: '5' });
    });
  });

  describe('a failure racing the recording of the same fill', () => {
    // The recording has read that the trade did not fail and is held (at the position's row, locked
    // by another connection) before it commits the fill; the failure arrives meanwhile. Without the
    // fill id's advisory lock, the failure would be remembered for a fill about to be recorded, and
    // the fill would count. With it, the failure waits, finds the fill and reverses it.
    it('reverses the fill that was being recorded, never leaving it counted', async () => {
      const sa = await createSubaccount(live, 'overtake race');
      await filledOrder(live, sa, 'buy', '0.30', '1', '0'); // the position's row exists
      const orderId = await restingOrder(live, sa, liveMarket, 'polymarket', 'buy', '0.40', '10');
      const fill = trade(orderId, liveMarket.venueMarketId, 'buy', '0.40', '10', '0.02');

      const holder = new Client({ connectionString: databaseUrl() });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query(`SELECT 1 FROM positions WHERE subaccount_id = $1 FOR UPDATE`, [sa]);
        const recording = recordNewFills(db, 'polymarket', [fill], logger);
        await lockWaiters(holder, 1);
        const reversal = reverseFill(db, 'polymarket', fill.venueFillId, FAILED);
        await lockWaiters(holder, 2);
        await holder.query('COMMIT');
        expect(await recording).toBe(1);
        expect(await reversal).toMatchObject({ outcome: 'reversed', orderId });
      } finally {
        await holder.end();
      }

      expect((await fillsOf(live, orderId)).map((f) => f.status)).toEqual(['reversed']);
      expect(await orderOf(live, orderId)).toMatchObject({ status: 'canceled', filled_quantity: '0', fees_paid: '0' });
      expect(await positionOf(sa)).toEqual({ quantity: '1', averageCost: '0.3', realizedPnl: '0' });
      expect(await pnlDay(live, sa)).toMatchObject({ realized_pnl: '0', fees: '0', fills: 1, volume: '0.3' });
    });
  });
});
