/**
 * Shared pieces of the trading suites: a workspace with a test key and subaccounts, the seeded
 * markets, order placement over HTTP, the simulated book (read from the in-process core, the way
 * a trader reads a venue's book before sending an order), polling and fee arithmetic.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import Decimal from 'decimal.js';
import type { Db } from '../../core/db/prismaClient';
import type { OrderBookView } from '../../core/venues/venue';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf, type ApiResponse } from '../support/http';
import type { Stack } from '../support/stack';

export const D = (value: Decimal.Value) => new Decimal(value);
export const sum = (values: Decimal.Value[]) => values.reduce<Decimal>((total, v) => total.add(v), new Decimal(0));

/** A generous per-key rate limit: these suites test trading, not the limiter. */
export const HIGH_RATE_LIMIT = 10_000;

export type SimVenueColumn = 'sim_kalshi' | 'sim_polymarket';

export interface Market {
  id: string;
  venue: SimVenueColumn;
  venueMarketId: string;
}

/** A seeded test market by its venue ticker (seeded when a core opens). */
export async function marketOf(db: Db, venue: SimVenueColumn, venueMarketId: string): Promise<Market> {
  const market = await db.market.findFirst({ where: { environment: 'test', venue, venueMarketId } });
  if (!market) throw new Error(`market ${venue}/${venueMarketId} is not seeded`);
  return { id: market.id, venue, venueMarketId };
}

export interface Trader {
  base: string;
  secret: string;
  keyId: string;
  workspaceId: string;
}

/** A fresh workspace with a test key (high rate limit), talking to `base`. */
export async function newTrader(db: Db, base: string, name = 'Trading test'): Promise<Trader> {
  const { workspace, key, secret } = await buildWorkspace(db, { rateLimit: HIGH_RATE_LIMIT, name });
  return { base, secret, keyId: key.id, workspaceId: workspace.id };
}

export async function createSubaccount(trader: Trader, name: string, startingBalance?: string): Promise<string> {
  const response = await call(trader.base, 'POST', '/v1/subaccounts', {
    key: trader.secret,
    body: { name, ...(startingBalance !== undefined ? { starting_balance: startingBalance } : {}) },
  });
  if (response.status !== 200) throw new Error(`could not create a subaccount: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as string;
}

export interface OrderBody {
  subaccount_id: string;
  market_id: string;
  side: 'yes' | 'no';
  action: 'buy' | 'sell';
  type: 'limit' | 'market';
  price?: unknown;
  quantity: unknown;
  time_in_force?: 'gtc' | 'ioc' | 'fok' | 'gtd';
  client_order_id?: string;
  post_only?: boolean;
  expires_at?: string;
}

export interface OrderView {
  id: string;
  subaccount_id: string;
  market_id: string;
  venue: string;
  side: 'yes' | 'no';
  action: 'buy' | 'sell';
  type: 'limit' | 'market';
  time_in_force: string;
  price: string | null;
  quantity: string;
  filled_quantity: string;
  remaining_quantity: string;
  average_fill_price: string | null;
  fees_paid: string;
  status: string;
  client_order_id: string;
  venue_order_id: string | null;
  queue_position: { orders_ahead: number; quantity_ahead: string } | null;
}

export interface FillView {
  id: string;
  order_id: string;
  subaccount_id: string;
  market_id: string;
  side: 'yes' | 'no';
  action: 'buy' | 'sell';
  price: string;
  quantity: string;
  fee: string;
  is_taker: boolean;
  venue_fill_id: string;
}

export function placeOrder(
  trader: Trader,
  body: OrderBody | Record<string, unknown>,
  headers: Record<string, string> = {},
  key = trader.secret,
): Promise<ApiResponse<OrderView>> {
  return call<OrderView>(trader.base, 'POST', '/v1/orders', { key, body, headers });
}

/** Places an order that must be accepted, and returns it. */
export async function placed(trader: Trader, body: OrderBody): Promise<OrderView> {
  const response = await placeOrder(trader, body);
  if (response.status !== 200) throw new Error(`order refused: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function getOrder(trader: Trader, id: string): Promise<OrderView> {
  const response = await call<OrderView>(trader.base, 'GET', `/v1/orders/${id}`, { key: trader.secret });
  if (response.status !== 200) throw new Error(`GET order ${id}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function fillsOf(trader: Trader, orderId: string): Promise<FillView[]> {
  const response = await call<{ data: FillView[] }>(trader.base, 'GET', `/v1/fills?order_id=${orderId}&limit=200`, { key: trader.secret });
  if (response.status !== 200) throw new Error(`GET fills: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

export interface Balance {
  subaccount_id: string;
  cash_balance: string;
  reserved_cash: string;
  positions_cost: string;
  available_cash: string;
  realized_pnl: string;
  realized_pnl_today: string;
  gross_exposure: string;
}

export async function portfolioOf(trader: Trader, subaccountId: string): Promise<Balance> {
  const response = await call<{ data: Balance[] }>(trader.base, 'GET', `/v1/portfolio?subaccount_id=${subaccountId}`, { key: trader.secret });
  if (response.status !== 200 || response.body.data.length !== 1) {
    throw new Error(`GET portfolio: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data[0];
}

export interface PositionView {
  subaccount_id: string;
  market_id: string;
  side: 'yes' | 'no';
  quantity: string;
  average_cost: string;
  cost_basis: string;
  mark_price: string | null;
  realized_pnl: string;
  unrealized_pnl: string | null;
}

export async function positionsOf(trader: Trader, subaccountId: string, marketId: string): Promise<PositionView[]> {
  const response = await call<{ data: PositionView[] }>(
    trader.base,
    'GET',
    `/v1/positions?subaccount_id=${subaccountId}&market_id=${marketId}`,
    { key: trader.secret },
  );
  if (response.status !== 200) throw new Error(`GET positions: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

export async function setRiskLimits(trader: Trader, subaccountId: string, limits: Record<string, unknown>): Promise<void> {
  const response = await call(trader.base, 'PUT', `/v1/risk_limits/${subaccountId}`, { key: trader.secret, body: limits });
  if (response.status !== 200) throw new Error(`PUT risk limits: ${response.status} ${JSON.stringify(response.body)}`);
}

/** The simulated venue's book for a market, in YES terms, as the core running in this process sees it. */
export async function bookOf(stack: Stack, market: Market, depth = 10): Promise<OrderBookView> {
  const venue = stack.core.venues.marketData(market.venue);
  if (!venue) throw new Error(`venue ${market.venue} is not open`);
  return venue.orderBook(market.venueMarketId, depth);
}

export async function bestPrices(stack: Stack, market: Market) {
  const book = await bookOf(stack, market);
  if (!book.bids.length || !book.asks.length) throw new Error(`${market.venueMarketId} has no two-sided book`);
  return {
    bid: D(book.bids[0].price),
    bidQuantity: D(book.bids[0].quantity),
    ask: D(book.asks[0].price),
    askQuantity: D(book.asks[0].quantity),
    book,
  };
}

/** Kalshi's trading fee: 0.07 x C x P x (1 - P), rounded up to the cent. */
export function kalshiFee(price: Decimal.Value, contracts: Decimal.Value, rate: Decimal.Value = '0.07'): Decimal {
  const p = D(price);
  return D(rate).mul(contracts).mul(p).mul(D(1).sub(p)).toDecimalPlaces(2, Decimal.ROUND_UP);
}

/** Fills grouped by price: total quantity and total fee per price. */
export function byPrice(fills: FillView[]): Map<string, { quantity: Decimal; fee: Decimal }> {
  const groups = new Map<string, { quantity: Decimal; fee: Decimal }>();
  for (const fill of fills) {
    const key = D(fill.price).toFixed();
    const group = groups.get(key) ?? { quantity: D(0), fee: D(0) };
    groups.set(key, { quantity: group.quantity.add(fill.quantity), fee: group.fee.add(fill.fee) });
  }
  return groups;
}

export const notionalOf = (fills: FillView[]) => sum(fills.map((f) => D(f.price).mul(f.quantity)));
export const feesOf = (fills: FillView[]) => sum(fills.map((f) => f.fee));
export const quantityOf = (fills: FillView[]) => sum(fills.map((f) => f.quantity));

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** SHA-256 hex of the RFC 8785 canonical JSON of a value, as a client verifies a receipt. */
export function canonicalHash(value: unknown): string {
  const canonical = canonicalize(value);
  if (canonical === undefined) throw new Error('not JSON');
  return sha256Hex(canonical);
}

/** Polls until `check` returns a value that satisfies `done`, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Asserts the error envelope's code (and param / limit when given), and returns the error. */
export function expectError(
  response: ApiResponse,
  status: number,
  code: string,
  extra: { param?: string; limit?: string } = {},
): { code: string; message: string; param?: string; limit?: string } {
  if (response.status !== status) {
    throw new Error(`expected ${status} ${code}, got ${response.status}: ${JSON.stringify(response.body)}`);
  }
  const error = envelopeOf(response) as { code: string; message: string; param?: string; limit?: string };
  expect(error.code).toBe(code);
  if (extra.param !== undefined) expect(error.param).toBe(extra.param);
  if (extra.limit !== undefined) expect((error as { limit?: string }).limit).toBe(extra.limit);
  return error;
}

/** Orders and fills of one subaccount, counted in the database. */
export async function countsOf(db: Db, subaccountId: string) {
  const [orders, fills, receipts] = await Promise.all([
    db.order.count({ where: { subaccountId } }),
    db.fill.count({ where: { subaccountId } }),
    db.receipt.count({ where: { subaccountId } }),
  ]);
  return { orders, fills, receipts };
}

/** A POST /v1/orders whose body is kept as the exact bytes the server sent. */
export async function rawPlace(
  base: string,
  secret: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${base}/v1/orders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}
