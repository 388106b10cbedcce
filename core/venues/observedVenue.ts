import type { VenueName } from './venueNames';
import { secondsSince } from '../support/metrics';
import type { LiveVenue, MarketData, Venue, VenueAmendResult, VenueCancelResult, VenuePlaceResult } from './venue';

/**
 * Decorators that report every venue call to an observer (the core's metrics and its readiness
 * report, core/ops/): how long it took, whether the venue answered, and what became of an order.
 * They change nothing of the call itself; an observer that fails is ignored, since counting must
 * never cost an order.
 */

export type VenueOperation =
  | 'place_order'
  | 'cancel_order'
  | 'amend_order'
  | 'cancel_orders'
  | 'get_order'
  | 'list_fills'
  | 'order_book'
  | 'queue_position'
  | 'fills_since'
  | 'balance'
  | 'positions'
  | 'heartbeat'
  | 'open_orders'
  | 'settlements'
  | 'public_trades'
  | 'candles'
  | 'quotes';

/** What became of one order sent to a venue: its placement's outcome, or `failed` when the call threw. */
export type VenueOrderOutcome = VenuePlaceResult['outcome'] | 'failed';

export interface VenueCall {
  venue: VenueName;
  operation: VenueOperation;
  seconds: number;
  /**
   * The venue answered, a refusal included. False when it could not be reached, its answer was lost
   * (`unknown`), it said it was unavailable, or the call threw.
   */
  reached: boolean;
  /** `place_order` only: the outcome, and for a refusal or an order never sent, the code saying why. */
  order?: { outcome: VenueOrderOutcome; reason?: string };
}

export interface VenueCallObserver {
  record(call: VenueCall): void;
}

export function observedVenue(venue: Venue, observer: VenueCallObserver): Venue {
  const timed = timer(venue.name, observer);
  return {
    name: venue.name,
    placeOrder: (request, options) => timed('place_order', () => venue.placeOrder(request, options), placement),
    cancelOrder: (clientOrderId, options) => timed('cancel_order', () => venue.cancelOrder(clientOrderId, options), orderChange),
    ...(venue.amendOrder ? { amendOrder: (clientOrderId, amend, options) => timed('amend_order', () => venue.amendOrder!(clientOrderId, amend, options), orderChange) } : {}),
    ...(venue.cancelOrders ? { cancelOrders: (clientOrderIds, options) => timed('cancel_orders', () => venue.cancelOrders!(clientOrderIds, options), batchOfChanges) } : {}),
    getOrder: (clientOrderId, options) => timed('get_order', () => venue.getOrder(clientOrderId, options)),
    listFills: (options) => timed('list_fills', () => venue.listFills(options)),
    orderBook: (venueMarketId, depth) => timed('order_book', () => venue.orderBook(venueMarketId, depth)),
    queuePosition: (clientOrderId, options) => timed('queue_position', () => venue.queuePosition(clientOrderId, options)),
    ...(venue.onFills ? { onFills: venue.onFills.bind(venue) } : {}),
    ...(venue.marketOrderPrice ? { marketOrderPrice: venue.marketOrderPrice.bind(venue) } : {}),
  };
}

export function observedLiveVenue(venue: LiveVenue, observer: VenueCallObserver): LiveVenue {
  const timed = timer(venue.name, observer);
  return {
    ...observedVenue(venue, observer),
    fillsSince: (since) => timed('fills_since', () => venue.fillsSince(since)),
    ...(venue.fillsAndFailuresSince ? { fillsAndFailuresSince: (since: Date) => timed('fills_since', () => venue.fillsAndFailuresSince!(since)) } : {}),
    ...(venue.openOrderIds ? { openOrderIds: (options) => timed('open_orders', () => venue.openOrderIds!(options)) } : {}),
    balance: () => timed('balance', () => venue.balance()),
    positions: () => timed('positions', () => venue.positions()),
    ...(venue.settlementsSince ? { settlementsSince: (since: Date) => timed('settlements', () => venue.settlementsSince!(since)) } : {}),
    close: () => venue.close(),
    ...(venue.heartbeat ? { heartbeat: (options) => timed('heartbeat', () => venue.heartbeat!(options)) } : {}),
    ...(venue.heartbeatStarted ? { heartbeatStarted: () => venue.heartbeatStarted!() } : {}),
  };
}

/** A venue's public market data (books for planning and marks), reported under the venue's name. */
export function observedMarketData(name: VenueName, data: MarketData, observer: VenueCallObserver): MarketData {
  const timed = timer(name, observer);
  return {
    orderBook: (venueMarketId, depth) => timed('order_book', () => data.orderBook(venueMarketId, depth)),
    ...(data.publicTrades ? { publicTrades: (market, query) => timed('public_trades', () => data.publicTrades!(market, query)) } : {}),
    ...(data.candles ? { candles: (market, interval, from, to) => timed('candles', () => data.candles!(market, interval, from, to)) } : {}),
    ...(data.quotes ? { quotes: (markets) => timed('quotes', () => data.quotes!(markets)) } : {}),
  };
}

type Judged = Pick<VenueCall, 'reached' | 'order'>;

function placement(result: VenuePlaceResult): Judged {
  switch (result.outcome) {
    case 'accepted':
      return { reached: true, order: { outcome: 'accepted' } };
    case 'rejected':
      return { reached: result.code !== 'venue_unavailable', order: { outcome: 'rejected', reason: result.code } };
    case 'not_sent':
      // Our own rate-limit buckets (or the venue's 429) held the order back: the venue is there.
      return { reached: result.reason === 'rate_limited', order: { outcome: 'not_sent', reason: result.reason } };
    case 'unknown':
      return { reached: false, order: { outcome: 'unknown' } };
  }
}

/** A cancel's or an amend's answer: reached unless lost or never sent. */
function orderChange(result: VenueCancelResult | VenueAmendResult): Judged {
  if (result.outcome === 'rejected') return { reached: result.code !== 'venue_unavailable' };
  return { reached: result.outcome !== 'unknown' };
}

/** A batch cancel's answers: reached when any order's was. */
function batchOfChanges(results: Map<string, VenueCancelResult>): Judged {
  return { reached: [...results.values()].some((result) => orderChange(result).reached) };
}

function timer(venue: VenueName, observer: VenueCallObserver) {
  const report = (call: VenueCall) => {
    try {
      observer.record(call);
    } catch {
      // Counting never fails a venue call.
    }
  };
  return async <T>(operation: VenueOperation, call: () => Promise<T>, judge: (result: T) => Judged = () => ({ reached: true })): Promise<T> => {
    const started = process.hrtime.bigint();
    const seconds = () => secondsSince(started);
    let result: T;
    try {
      result = await call();
    } catch (error) {
      report({ venue, operation, seconds: seconds(), reached: false, ...(operation === 'place_order' ? { order: { outcome: 'failed' } } : {}) });
      throw error;
    }
    report({ venue, operation, seconds: seconds(), ...judge(result) });
    return result;
  };
}
