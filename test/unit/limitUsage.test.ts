import Decimal from 'decimal.js';
import { grossExposure, limitUtilisation, realizedLossToday, type LimitUsage } from '../../core/domain/limitUsage';
import type { RiskLimitValues } from '../../core/domain/preTradeRisk';
import { sqlList } from '../../core/db/sqlLists';
import { WORKING_STATUSES } from '../../core/domain/orderLifecycle';

const D = (value: Decimal.Value) => new Decimal(value);

const USAGE: LimitUsage = {
  largestOrderNotional: D(5),
  largestPositionIncludingOpenBuys: D(30),
  positionsCost: D('4.6'),
  openBuyNotional: D(8),
  openOrders: 2,
  ordersInLastMinute: 3,
  realizedPnlToday: D('-0.12'),
};

describe('limit usage', () => {
  it('measures gross exposure as positions at cost plus open buys, and today\'s loss never below zero', () => {
    expect(grossExposure(USAGE).toFixed()).toBe('12.6');
    expect(realizedLossToday(USAGE).toFixed()).toBe('0.12');
    expect(realizedLossToday({ ...USAGE, realizedPnlToday: D(7) }).toFixed()).toBe('0');
  });

  it('gives every limit its figure and current / limit to 4 places', () => {
    const limits: RiskLimitValues = {
      maxOrderNotional: D(50), maxPositionPerMarket: D(120), maxGrossExposure: D(30),
      maxDailyRealizedLoss: D(10), maxOpenOrders: 8, maxOrdersPerMinute: 7,
    };
    expect(limitUtilisation(limits, USAGE).map((use) => [use.limit, use.value?.toFixed() ?? null, use.current.toFixed(), use.utilisation?.toFixed() ?? null])).toEqual([
      ['max_order_notional', '50', '5', '0.1'],
      ['max_position_per_market', '120', '30', '0.25'],
      ['max_gross_exposure', '30', '12.6', '0.42'],
      ['max_daily_realized_loss', '10', '0.12', '0.012'],
      ['max_open_orders', '8', '2', '0.25'],
      ['max_orders_per_minute', '7', '3', '0.4286'],
    ]);
  });

  it('has no utilisation without a limit or with a limit of zero', () => {
    const none: RiskLimitValues = { maxOrderNotional: null, maxPositionPerMarket: D(0), maxGrossExposure: null, maxDailyRealizedLoss: null, maxOpenOrders: 0, maxOrdersPerMinute: null };
    expect(limitUtilisation(none, USAGE).map((use) => [use.value?.toFixed() ?? null, use.utilisation])).toEqual([
      [null, null], ['0', null], [null, null], [null, null], ['0', null], [null, null],
    ]);
  });
});

describe('sqlList', () => {
  it('renders a status list as a SQL literal list, with no bind parameters', () => {
    const sql = sqlList(WORKING_STATUSES);
    expect(sql.sql).toBe("('pending', 'open', 'partially_filled', 'unknown')");
    expect(sql.values).toEqual([]);
  });

  it('accepts enum labels only', () => {
    expect(() => sqlList([])).toThrow('at least one');
    expect(() => sqlList(["open') OR ('1' = '1"])).toThrow('enum labels only');
    expect(() => sqlList(['Open'])).toThrow('enum labels only');
  });
});
