import { DomainError } from '../../domain/errors';
import { formatDecimal, parseDecimalString, type Decimal } from '../../domain/decimals';
import type { QueuePositionView, VenueCallOptions, VenueFill, VenueOrderState, VenuePosition, VenueSettlement } from '../venue';
import { settlementFromRest } from './settlementWire';
import { fillFromRest, stateFromRestOrder, yesPriceOfRestOrder, type OurOrderTerms } from './orderWire';
import type { KalshiOutcome, KalshiSession } from './session';

/**
 * The reads of one Kalshi account through its session (Trade API v2, docs as of 2026-08; shapes
 * as the fake records them, fakes/kalshi/restRoutes.ts and wireShapes.ts): one order, orders by
 * ticker and time, fills, balance, positions, queue position. Listings are paged by an opaque
 * `cursor` ("" on the last page) and come newest first. A read that fails throws (or returns)
 * the session's DomainError: nothing changed at the venue, ask again later. The reads on an order's
 * way (`call`) keep to the caller's deadline.
 */

/**
 * What a lookup of one of our orders learnt: its state at Kalshi; null when Kalshi holds no such
 * order (by its id: 404; by ticker and time window: none with our client_order_id among the orders
 * created since the window's start; old finished orders that moved to `/historical/orders` are
 * not searched); 'unavailable' when Kalshi could not be asked or answered something unreadable.
 */
export type KalshiOrderLookup = { readonly state: VenueOrderState; readonly yesPrice: Decimal | null } | null | 'unavailable';

export const ORDERS_PATH = '/portfolio/orders';
/** Recorded `GET /account/endpoint_costs`: a V2 cancel and a one-order GET cost 2; the rest 10 (docs/kalshi-fake.md). */
export const ONE_ORDER_COST = 2;
/** Kalshi's largest page (`limit` 1..1000). */
const PAGE_LIMIT = 1000;
/** A bound on pages per listing, so a venue that kept answering cursors could not loop us forever. */
const MAX_PAGES = 200;

export const unreadableAnswer = (what: string) => new DomainError('venue_error', `Kalshi answered ${what} with a body we could not read.`);
const errorOf = (outcome: Exclude<KalshiOutcome, { kind: 'answered' }>) => outcome.error;

export class KalshiAccountReads {
  constructor(private readonly session: KalshiSession) {}

  /** `GET /portfolio/orders/{id}`. */
  async orderById(venueOrderId: string, call: VenueCallOptions = {}): Promise<KalshiOrderLookup> {
    const outcome = await this.session.request('GET', `${ORDERS_PATH}/${encodeURIComponent(venueOrderId)}`, { kind: 'read', cost: ONE_ORDER_COST, deadline: call.deadline });
    if (outcome.kind === 'refused' && outcome.status === 404) return null;
    if (outcome.kind !== 'answered') return 'unavailable';
    const raw = (outcome.body as { order?: unknown } | undefined)?.order;
    const state = stateFromRestOrder(raw);
    return state === null ? 'unavailable' : { state, yesPrice: yesPriceOfRestOrder(raw) };
  }

  /** `GET /portfolio/orders?ticker=&min_ts=` (unix seconds), paged, matching `client_order_id`: Kalshi has no filter by it. */
  async orderByClientId(ticker: string, clientOrderId: string, since: Date, call: VenueCallOptions = {}): Promise<KalshiOrderLookup> {
    const isOurs = (raw: unknown) => stateFromRestOrder(raw)?.clientOrderId === clientOrderId;
    const raw = await this.pages(ORDERS_PATH, { ticker, min_ts: Math.floor(since.getTime() / 1000) }, 'orders', isOurs, call);
    if (raw instanceof DomainError) return 'unavailable';
    const match = raw.find(isOurs);
    return match === undefined ? null : { state: stateFromRestOrder(match)!, yesPrice: yesPriceOfRestOrder(match) };
  }

  /**
   * The order ids (lower case) of the account's resting orders: `GET /portfolio/orders?status=resting`,
   * every page, within the caller's deadline (each page a read of the default cost). Rows that do
   * not say `resting` are left out too, so an order the venue ended is never taken for open.
   */
  async restingOrderIds(call: VenueCallOptions = {}): Promise<ReadonlySet<string>> {
    const raw = await this.pages(ORDERS_PATH, { status: 'resting' }, 'orders', undefined, call);
    if (raw instanceof DomainError) throw raw;
    const states = raw.map(stateFromRestOrder);
    return new Set(states.flatMap((state) => (state?.status === 'open' && state.venueOrderId !== null ? [state.venueOrderId.toLowerCase()] : [])));
  }

  /** One order's fills (`GET /portfolio/fills?order_id=`) in its own terms, oldest first. */
  async fillsOfOrder(venueOrderId: string, order: OurOrderTerms, call: VenueCallOptions = {}): Promise<VenueFill[] | DomainError> {
    const raw = await this.pages('/portfolio/fills', { order_id: venueOrderId }, 'fills', undefined, call);
    if (raw instanceof DomainError) return raw;
    return oldestFirst(raw.map((fill) => fillFromRest(fill, order)).filter((fill): fill is VenueFill => fill !== null));
  }

  /** The account's raw REST fills since `since` (`min_ts`, unix seconds), newest first. */
  async rawFillsSince(since: Date): Promise<unknown[]> {
    const raw = await this.pages('/portfolio/fills', { min_ts: Math.floor(since.getTime() / 1000) }, 'fills');
    if (raw instanceof DomainError) throw raw;
    return raw;
  }

  /** `GET /portfolio/balance` → `balance_dollars`, as a decimal string. */
  async balance(): Promise<string> {
    const outcome = await this.session.request('GET', '/portfolio/balance', { kind: 'read' });
    if (outcome.kind !== 'answered') throw errorOf(outcome);
    const dollars = parseDecimalString((outcome.body as { balance_dollars?: unknown } | undefined)?.balance_dollars);
    if (dollars === null) throw unreadableAnswer('the balance');
    return formatDecimal(dollars);
  }

  /** `GET /portfolio/positions` (paged `market_positions`), non-zero `position_fp` only: + YES, - NO. */
  async positions(): Promise<VenuePosition[]> {
    const raw = await this.pages('/portfolio/positions', {}, 'market_positions');
    if (raw instanceof DomainError) throw raw;
    const positions: VenuePosition[] = [];
    for (const row of raw as ({ ticker?: unknown; position_fp?: unknown } | null)[]) {
      const net = parseDecimalString(row?.position_fp);
      if (typeof row?.ticker !== 'string' || net === null) throw unreadableAnswer('the positions');
      if (!net.isZero()) positions.push({ venueMarketId: row.ticker, netYes: formatDecimal(net) });
    }
    return positions;
  }

  /**
   * The account's settlements since `since` (`GET /portfolio/settlements?min_ts=`, unix seconds on
   * `settled_time`, paged, newest first), in our terms (settlementWire.ts); a record that cannot be
   * read is left out, and waits for a later read rather than being booked as a guess.
   */
  async settlementsSince(since: Date): Promise<VenueSettlement[]> {
    const raw = await this.pages('/portfolio/settlements', { min_ts: Math.floor(since.getTime() / 1000) }, 'settlements');
    if (raw instanceof DomainError) throw raw;
    return raw.map(settlementFromRest).filter((record): record is VenueSettlement => record !== null);
  }

  /**
   * `GET /portfolio/orders/{id}/queue_position` (the default cost of 10: the recorded costs name
   * only the one-order GET at 2): Kalshi reports the contracts ahead (`queue_position_fp`), not
   * the orders. Null when the order is not resting (404).
   */
  async queuePosition(venueOrderId: string, call: VenueCallOptions = {}): Promise<QueuePositionView | null> {
    const outcome = await this.session.request('GET', `${ORDERS_PATH}/${encodeURIComponent(venueOrderId)}/queue_position`, { kind: 'read', deadline: call.deadline });
    if (outcome.kind === 'refused' && outcome.status === 404) return null;
    if (outcome.kind !== 'answered') throw errorOf(outcome);
    const ahead = parseDecimalString((outcome.body as { queue_position_fp?: unknown } | undefined)?.queue_position_fp);
    if (ahead === null) throw unreadableAnswer('the queue position');
    return { venueOrderId, ordersAhead: null, quantityAhead: formatDecimal(ahead) };
  }

  /** Every item of a cursor-paged listing `{cursor, <field>: [...]}`, newest first; stops early once `stopAt` matches an item. */
  private async pages(
    path: string,
    query: Record<string, string | number>,
    field: string,
    stopAt?: (item: unknown) => boolean,
    call: VenueCallOptions = {},
  ): Promise<unknown[] | DomainError> {
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const outcome = await this.session.request<Record<string, unknown> | undefined>('GET', path, { kind: 'read', query: { ...query, limit: PAGE_LIMIT, cursor }, deadline: call.deadline });
      if (outcome.kind !== 'answered') return errorOf(outcome);
      const list = outcome.body?.[field];
      if (!Array.isArray(list)) return unreadableAnswer(`GET ${path}`);
      items.push(...list);
      const next = outcome.body?.cursor;
      if (typeof next !== 'string' || next === '' || next === cursor || (stopAt !== undefined && list.some(stopAt))) return items;
      cursor = next;
    }
    return new DomainError('venue_error', `Kalshi's listing of ${path} did not end within ${MAX_PAGES} pages.`);
  }
}

/** Oldest first: Kalshi lists newest first, so reverse, then order by time (stable for equal times). */
export function oldestFirst(fills: readonly VenueFill[]): VenueFill[] {
  return [...fills].reverse().sort((a, b) => Date.parse(a.executedAt) - Date.parse(b.executedAt));
}
