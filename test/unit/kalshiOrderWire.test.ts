/**
 * Our orders in Kalshi's V2 wire shapes and Kalshi's answers in our terms (core/venues/kalshi/
 * orderWire.ts, Trade API v2 as of 2026-08). Fills are built with the fake's own shape writers
 * (fakes/kalshi/wireShapes.ts: the recorded REST Fill and the WebSocket `fill` message), so the
 * mapping is checked against the shapes the fake serves, not against shapes written for it.
 */
import {
  createOrderBody,
  fillFromRest,
  fillFromStream,
  kalshiBookSide,
  stateFromCreateAnswer,
  stateFromRestOrder,
  type KalshiCreateBodyResult,
  type OurOrderTerms,
} from '../../core/venues/kalshi/orderWire';
import type { VenueOrderRequest } from '../../core/venues/venue';
import { D } from '../../fakes/kalshi/fixedPoint';
import type { BookSideV2, FillRecord } from '../../fakes/kalshi/records';
import { fillJson, fillWsJson } from '../../fakes/kalshi/wireShapes';

const TICKER = 'KXFAKEFED-26DEC-T4.00';

function request(overrides: Partial<VenueOrderRequest> = {}): VenueOrderRequest {
  return { clientOrderId: 'order_01', venueMarketId: TICKER, side: 'yes', action: 'buy', type: 'limit', price: '0.56', quantity: '10', timeInForce: 'gtc', ...overrides };
}

function body(result: KalshiCreateBodyResult) {
  if (!result.ok) throw new Error(`refused: ${result.refusal.message}`);
  return result.body;
}

function refusal(result: KalshiCreateBodyResult) {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.body)}`);
  return result.refusal;
}

describe('our order as a Kalshi V2 create body', () => {
  it('maps the four sides onto the YES leg, with worked prices', () => {
    expect(body(createOrderBody(request({ side: 'yes', action: 'buy', price: '0.56' })))).toEqual({
      ticker: TICKER,
      side: 'bid',
      count: '10.00',
      price: '0.5600',
      time_in_force: 'good_till_canceled',
      self_trade_prevention_type: 'taker_at_cross',
      client_order_id: 'order_01',
    });
    expect(body(createOrderBody(request({ side: 'yes', action: 'sell', price: '0.56' })))).toMatchObject({ side: 'ask', price: '0.5600' });
    // Buying NO at 0.40 is selling YES at 0.60.
    expect(body(createOrderBody(request({ side: 'no', action: 'buy', price: '0.40' })))).toMatchObject({ side: 'ask', price: '0.6000' });
    // Selling NO at 0.37 is buying YES at 0.63.
    expect(body(createOrderBody(request({ side: 'no', action: 'sell', price: '0.37' })))).toMatchObject({ side: 'bid', price: '0.6300' });
    expect([kalshiBookSide('yes', 'buy'), kalshiBookSide('yes', 'sell'), kalshiBookSide('no', 'buy'), kalshiBookSide('no', 'sell')]).toEqual(['bid', 'ask', 'ask', 'bid']);
  });

  it('writes fixed-point strings: counts with 2 decimals, prices with 4, deci-cent prices exactly', () => {
    expect(body(createOrderBody(request({ quantity: '2.5', price: '0.055' })))).toMatchObject({ count: '2.50', price: '0.0550' });
    expect(body(createOrderBody(request({ quantity: '1', side: 'no', price: '0.9125' })))).toMatchObject({ count: '1.00', side: 'ask', price: '0.0875' });
    // Trailing zeros are not precision: "0.560000" is 0.56.
    expect(body(createOrderBody(request({ quantity: '3.000', price: '0.560000' })))).toMatchObject({ count: '3.00', price: '0.5600' });
  });

  it('maps the times in force', () => {
    expect(body(createOrderBody(request({ timeInForce: 'gtc' }))).time_in_force).toBe('good_till_canceled');
    expect(body(createOrderBody(request({ timeInForce: 'ioc' }))).time_in_force).toBe('immediate_or_cancel');
    expect(body(createOrderBody(request({ timeInForce: 'fok' }))).time_in_force).toBe('fill_or_kill');
  });

  it('sends a market order as IOC/FOK at its worst price, else at the YES leg extreme', () => {
    const market = (overrides: Partial<VenueOrderRequest>) => body(createOrderBody(request({ type: 'market', price: undefined, timeInForce: 'ioc', ...overrides })));
    expect(market({ side: 'yes', action: 'buy' })).toMatchObject({ side: 'bid', price: '0.9900', time_in_force: 'immediate_or_cancel' });
    expect(market({ side: 'yes', action: 'sell' })).toMatchObject({ side: 'ask', price: '0.0100' });
    expect(market({ side: 'no', action: 'buy' })).toMatchObject({ side: 'ask', price: '0.0100' });
    expect(market({ side: 'no', action: 'sell' })).toMatchObject({ side: 'bid', price: '0.9900' });
    // Worst price 0.45 for NO = at least 0.55 for the YES ask.
    expect(market({ side: 'no', action: 'buy', price: '0.45', timeInForce: 'fok' })).toMatchObject({ side: 'ask', price: '0.5500', time_in_force: 'fill_or_kill' });
  });

  it('refuses, with a typed refusal and without rounding, what Kalshi cannot take', () => {
    expect(refusal(createOrderBody(request({ quantity: '1.005' })))).toMatchObject({ code: 'quantity_precision', param: 'quantity' });
    expect(refusal(createOrderBody(request({ price: '0.56001' })))).toMatchObject({ code: 'price_precision', param: 'price' });
    expect(refusal(createOrderBody(request({ side: 'no', price: '0.12345' })))).toMatchObject({ code: 'price_precision' });
    expect(refusal(createOrderBody(request({ price: '1' })))).toMatchObject({ code: 'price_out_of_range' });
    expect(refusal(createOrderBody(request({ price: '0' })))).toMatchObject({ code: 'price_out_of_range' });
    expect(refusal(createOrderBody(request({ quantity: '0' })))).toMatchObject({ code: 'quantity_not_positive' });
    expect(refusal(createOrderBody(request({ quantity: '1e3' })))).toMatchObject({ code: 'not_a_decimal' });
    expect(refusal(createOrderBody(request({ price: undefined })))).toMatchObject({ code: 'price_missing' });
    expect(refusal(createOrderBody(request({ type: 'market', timeInForce: 'gtc' })))).toMatchObject({ code: 'market_order_rests', param: 'timeInForce' });
    expect(refusal(createOrderBody(request({ quantity: '1.005' }))).message).toContain('not sent to Kalshi');
  });
});

describe("Kalshi's order answers as our order state", () => {
  const answer = (fill: string, remaining: string) => ({ order_id: 'k-1', client_order_id: 'order_01', fill_count: fill, remaining_count: remaining, ts_ms: 1 });

  it('reads the V2 create answer: filled, resting, IOC remainder canceled, stopped by self-trade prevention', () => {
    const gtc = { clientOrderId: 'order_01', quantity: '10', timeInForce: 'gtc' } as const;
    expect(stateFromCreateAnswer(answer('10.00', '0.00'), gtc)).toEqual({ venueOrderId: 'k-1', clientOrderId: 'order_01', status: 'filled', filledQuantity: '10', remainingQuantity: '0' });
    expect(stateFromCreateAnswer(answer('3.00', '7.00'), gtc)).toMatchObject({ status: 'open', filledQuantity: '3', remainingQuantity: '7' });
    expect(stateFromCreateAnswer(answer('0.00', '0.00'), gtc)).toMatchObject({ status: 'canceled', filledQuantity: '0', remainingQuantity: '0' });
    expect(stateFromCreateAnswer(answer('3.00', '0.00'), { ...gtc, timeInForce: 'ioc' })).toMatchObject({ status: 'canceled', filledQuantity: '3', remainingQuantity: '0' });
    expect(stateFromCreateAnswer(answer('2.50', '7.50'), { ...gtc, timeInForce: 'ioc' })).toMatchObject({ status: 'canceled', filledQuantity: '2.5' });
    expect(stateFromCreateAnswer({ order_id: 'k-1', fill_count: 3 }, gtc)).toBeNull();
  });

  it('reads a REST order: resting, executed, canceled', () => {
    const order = (status: string, fill: string, remaining: string) => ({ order_id: 'k-2', client_order_id: 'order_02', status, fill_count_fp: fill, remaining_count_fp: remaining });
    expect(stateFromRestOrder(order('resting', '1.00', '4.00'))).toEqual({ venueOrderId: 'k-2', clientOrderId: 'order_02', status: 'open', filledQuantity: '1', remainingQuantity: '4' });
    expect(stateFromRestOrder(order('executed', '5.00', '0.00'))).toMatchObject({ status: 'filled', filledQuantity: '5' });
    expect(stateFromRestOrder(order('canceled', '1.00', '0.00'))).toMatchObject({ status: 'canceled', filledQuantity: '1', remainingQuantity: '0' });
    expect(stateFromRestOrder(order('pending_review', '0.00', '5.00'))).toBeNull();
  });
});

describe("Kalshi's fills in our order's own terms", () => {
  const createdMs = Date.parse('2026-08-14T15:04:05.123Z');
  function fakeFill(bookSide: BookSideV2, yesPriceTicks: number, units: number, fee: string): FillRecord {
    return { fillId: 'f-1', tradeId: 'f-1', orderId: 'k-3', clientOrderId: 'order_03', userId: 'u', ticker: TICKER, bookSide, yesPriceTicks, units, isTaker: true, fee: new D(fee), createdMs, postPositionUnits: 0 };
  }
  const ours = (side: 'yes' | 'no', action: 'buy' | 'sell'): OurOrderTerms => ({ clientOrderId: 'order_03', venueMarketId: TICKER, side, action });

  it('prices a YES order at the YES price and a NO order at the NO price, whatever legs the fill names', () => {
    // An ask filled at YES 0.52: Kalshi names its leg "no" (outcome_side no, no_price 0.48).
    const ask = fillJson(fakeFill('ask', 5200, 1000, '0.0175'));
    expect(ask).toMatchObject({ outcome_side: 'no', book_side: 'ask', yes_price_dollars: '0.5200', no_price_dollars: '0.4800' });
    // Our YES sell is that ask: its price is the YES price, not the leg's.
    expect(fillFromRest(ask, ours('yes', 'sell'))).toEqual({
      venueFillId: 'f-1',
      venueOrderId: 'k-3',
      clientOrderId: 'order_03',
      venueMarketId: TICKER,
      side: 'yes',
      action: 'sell',
      price: '0.52',
      quantity: '10',
      fee: '0.0175',
      isTaker: true,
      executedAt: '2026-08-14T15:04:05.123Z',
    });
    // Our NO buy is also an ask: NO price.
    expect(fillFromRest(ask, ours('no', 'buy'))).toMatchObject({ side: 'no', action: 'buy', price: '0.48' });
    // A bid at YES 0.63: our YES buy pays 0.63, our NO sell (bid YES at 1 - 0.37) receives 0.37.
    const bid = fillJson(fakeFill('bid', 6300, 250, '0.003900'));
    expect(fillFromRest(bid, ours('yes', 'buy'))).toMatchObject({ price: '0.63', quantity: '2.5', fee: '0.0039' });
    expect(fillFromRest(bid, ours('no', 'sell'))).toMatchObject({ side: 'no', action: 'sell', price: '0.37' });
  });

  it('keeps deci-cent prices exact', () => {
    expect(fillFromRest(fillJson(fakeFill('ask', 9125, 100, '0.0006')), ours('no', 'buy'))).toMatchObject({ price: '0.0875', fee: '0.0006' });
    expect(fillFromRest(fillJson(fakeFill('ask', 9125, 100, '0.0006')), ours('yes', 'sell'))).toMatchObject({ price: '0.9125' });
  });

  it('reads the WebSocket fill message the same way, executed at ts_ms', () => {
    const msg = fillWsJson({ ...fakeFill('ask', 6000, 200, '0.0336'), isTaker: false });
    expect(fillFromStream(msg, ours('no', 'buy'))).toEqual({
      venueFillId: 'f-1',
      venueOrderId: 'k-3',
      clientOrderId: 'order_03',
      venueMarketId: TICKER,
      side: 'no',
      action: 'buy',
      price: '0.4',
      quantity: '2',
      fee: '0.0336',
      isTaker: false,
      executedAt: '2026-08-14T15:04:05.123Z',
    });
  });

  it('leaves out what it cannot read', () => {
    expect(fillFromRest({ fill_id: 'f', order_id: 'k', yes_price_dollars: 0.5, count_fp: '1.00', fee_cost: '0', created_time: '2026-08-14T00:00:00Z' }, ours('yes', 'buy'))).toBeNull();
    expect(fillFromStream({ ...fillJson(fakeFill('bid', 5000, 100, '0.0175')) }, ours('yes', 'buy'))).toBeNull(); // no ts_ms on a REST fill
  });
});
