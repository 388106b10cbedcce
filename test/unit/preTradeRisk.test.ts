import Decimal from 'decimal.js';
import { DomainError } from '../../core/domain/errors';
import { checkPreTradeRisk, RiskLimitExceeded, type ProposedOrder, type RiskLimitValues, type SubaccountExposure } from '../../core/domain/preTradeRisk';

const D = (value: Decimal.Value) => new Decimal(value);

const NO_LIMITS: RiskLimitValues = {
  maxOrderNotional: null, maxPositionPerMarket: null, maxGrossExposure: null,
  maxDailyRealizedLoss: null, maxOpenOrders: null, maxOrdersPerMinute: null,
};

/** 40 contracts held here (+10 wanted by open buys), $200 gross, 3 open orders, 5 in the last minute, lost $20 today. */
const EXPOSURE: SubaccountExposure = {
  positionIncludingOpenBuys: D(50),
  grossExposure: D(200),
  openOrders: 3,
  ordersInLastMinute: 5,
  realizedPnlToday: D(-20),
  availableCash: D(100),
  sellableQuantity: D(40),
};

/** Buy 100 at 0.40: notional 40, fees at most 1.68. */
const buy = (quantity: Decimal.Value = 100, worstPrice: Decimal.Value = '0.40', maxFee: Decimal.Value = '1.68'): ProposedOrder => ({
  action: 'buy', quantity: D(quantity), worstPrice: D(worstPrice), maxFee: D(maxFee),
});
const sell = (quantity: Decimal.Value, worstPrice: Decimal.Value = '0.40'): ProposedOrder => ({ action: 'sell', quantity: D(quantity), worstPrice: D(worstPrice), maxFee: D(0) });

function refusal(order: ProposedOrder, limits: Partial<RiskLimitValues>, exposure: Partial<SubaccountExposure> = {}, halted = false): DomainError {
  try {
    checkPreTradeRisk(order, { ...NO_LIMITS, ...limits }, { ...EXPOSURE, ...exposure }, halted);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected the order to be refused');
}

const passes = (order: ProposedOrder, limits: Partial<RiskLimitValues>, exposure: Partial<SubaccountExposure> = {}) =>
  expect(() => checkPreTradeRisk(order, { ...NO_LIMITS, ...limits }, { ...EXPOSURE, ...exposure }, false)).not.toThrow();

describe('checkPreTradeRisk', () => {
  it('passes an order within every limit, cash and position', () => {
    passes(buy(), { maxOrderNotional: D(40), maxPositionPerMarket: D(150), maxGrossExposure: D(240), maxDailyRealizedLoss: D('20.01'), maxOpenOrders: 4, maxOrdersPerMinute: 6 });
    passes(sell(40), {});
  });

  it('refuses everything while the kill switch is on, before any limit', () => {
    const error = refusal(buy(), { maxOrderNotional: D(0) }, {}, true);
    expect(error).toBeInstanceOf(RiskLimitExceeded);
    expect(error).toMatchObject({ code: 'risk_limit_exceeded', limit: 'kill_switch', status: 422 });
  });

  describe('max_order_notional: quantity x worst price, for buys and sells', () => {
    it('allows a notional equal to the limit and refuses one above it', () => {
      passes(buy(100, '0.40'), { maxOrderNotional: D(40) });
      const error = refusal(buy(101, '0.40'), { maxOrderNotional: D(40) });
      expect(error).toMatchObject({ limit: 'max_order_notional', message: 'Order notional 40.4 exceeds max_order_notional 40.' });
      expect(refusal(sell(40, '0.90'), { maxOrderNotional: D(35) })).toMatchObject({ limit: 'max_order_notional' });
    });
  });

  describe('max_position_per_market: held plus wanted by open buys plus this buy', () => {
    it('allows reaching the limit, refuses passing it, and never limits a sell', () => {
      passes(buy(100), { maxPositionPerMarket: D(150) });
      expect(refusal(buy(101), { maxPositionPerMarket: D(150) })).toMatchObject({
        limit: 'max_position_per_market', message: 'Position would reach 151 contracts, above max_position_per_market 150.',
      });
      passes(sell(10), { maxPositionPerMarket: D(1) });
    });
  });

  describe('max_gross_exposure: gross exposure plus this buy\'s notional', () => {
    it('allows reaching the limit, refuses passing it, and never limits a sell', () => {
      passes(buy(100, '0.40'), { maxGrossExposure: D(240) });
      expect(refusal(buy(100, '0.41'), { maxGrossExposure: D(240) })).toMatchObject({
        limit: 'max_gross_exposure', message: 'Gross exposure would reach 241, above max_gross_exposure 240.',
      });
      passes(sell(10), { maxGrossExposure: D(1) });
    });
  });

  describe('max_daily_realized_loss: today\'s loss at or above the limit stops all trading', () => {
    it('refuses buys and sells once the loss reaches the limit', () => {
      passes(buy(), { maxDailyRealizedLoss: D('20.01') });
      expect(refusal(buy(), { maxDailyRealizedLoss: D(20) })).toMatchObject({
        limit: 'max_daily_realized_loss', message: 'Realized loss today is 20, at or above max_daily_realized_loss 20.',
      });
      expect(refusal(sell(1), { maxDailyRealizedLoss: D(20) })).toMatchObject({ limit: 'max_daily_realized_loss' });
    });

    it('never counts a winning day as a loss', () => {
      passes(buy(), { maxDailyRealizedLoss: D(0) }, { realizedPnlToday: D(5) });
    });
  });

  describe('max_open_orders and max_orders_per_minute count this order too', () => {
    it('allows the order that reaches the count and refuses the one past it', () => {
      passes(buy(), { maxOpenOrders: 4, maxOrdersPerMinute: 6 });
      expect(refusal(buy(), { maxOpenOrders: 3 })).toMatchObject({ limit: 'max_open_orders', message: '3 orders are open; max_open_orders is 3.' });
      expect(refusal(sell(1), { maxOrdersPerMinute: 5 })).toMatchObject({
        limit: 'max_orders_per_minute', message: '5 orders or more in the last minute; max_orders_per_minute is 5.',
      });
    });
  });

  it('tests the limits in order: the first broken one is named', () => {
    const everything = { maxOrderNotional: D(1), maxPositionPerMarket: D(1), maxGrossExposure: D(1), maxDailyRealizedLoss: D(1), maxOpenOrders: 0, maxOrdersPerMinute: 0 };
    expect(refusal(buy(), everything)).toMatchObject({ limit: 'max_order_notional' });
    expect(refusal(buy(), { ...everything, maxOrderNotional: null })).toMatchObject({ limit: 'max_position_per_market' });
    expect(refusal(buy(), { ...everything, maxOrderNotional: null, maxPositionPerMarket: null })).toMatchObject({ limit: 'max_gross_exposure' });
  });

  describe('cash: a buy must be able to pay its worst notional and fees', () => {
    it('allows a cost equal to the available cash and refuses more, fees included', () => {
      passes(buy(100, '0.40', 60), {});
      expect(refusal(buy(100, '0.40', '60.01'), {})).toMatchObject({
        code: 'insufficient_funds', status: 422, message: 'The order may cost 100.01 with fees but only 100 is available.',
      });
    });

    it('does not check cash where the venue holds it (live), nor for a sell', () => {
      passes(buy(1000, '0.99'), {}, { availableCash: null });
      passes(sell(40, '0.99'), {}, { availableCash: D(0) });
    });
  });

  describe('position: a sell may offer only what is held and not already offered', () => {
    it('allows selling all that is sellable and refuses one contract more', () => {
      passes(sell(40), {});
      const error = refusal(sell(41), {});
      expect(error).toMatchObject({ code: 'insufficient_position', message: 'Selling 41 contracts, but only 40 are held and not already offered.' });
      expect(error).not.toBeInstanceOf(RiskLimitExceeded);
    });

    it('never limits a buy by the position', () => {
      passes(buy(), {}, { sellableQuantity: D(0) });
    });
  });
});
