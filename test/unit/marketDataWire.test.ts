import { candleFromKalshi, quoteFromKalshiMarket, tradeFromKalshi } from '../../core/venues/kalshi/marketDataWire';
import { candlesFromHistory, tradeFromDataApi } from '../../core/venues/polymarket/marketDataWire';

describe('Kalshi public market data, read into our terms', () => {
  it('reads a trade of GET /markets/trades as recorded on demo', () => {
    const recorded = {
      count_fp: '7.77', created_time: '2026-06-15T15:48:42.609997Z', is_block_trade: false, no_price_dollars: '0.9700', taker_book_side: 'bid',
      taker_outcome_side: 'yes', taker_side: 'yes', ticker: 'KXHIGHNY-26JUN15-T80', trade_id: '0d1f6a3e-0000-4000-8000-000000000001', yes_price_dollars: '0.0300',
    };
    expect(tradeFromKalshi(recorded)).toEqual({ id: recorded.trade_id, yesPrice: '0.03', quantity: '7.77', takerSide: 'yes', executedAt: new Date('2026-06-15T15:48:42.609Z') });
    expect(tradeFromKalshi({ ...recorded, taker_outcome_side: 'no' })?.takerSide).toBe('no');
    expect(tradeFromKalshi({ ...recorded, yes_price_dollars: 0.03 })).toBeNull();
    expect(tradeFromKalshi({ ...recorded, created_time: 'soon' })).toBeNull();
  });

  it('reads a candlestick, leaving out a period without a trade', () => {
    const traded = {
      end_period_ts: 1_764_410_400, volume_fp: '12.00', open_interest_fp: '340.00',
      yes_bid: { open_dollars: '0.4100', low_dollars: '0.4000', high_dollars: '0.4200', close_dollars: '0.4100' },
      price: { open_dollars: '0.4200', low_dollars: '0.4100', high_dollars: '0.4300', close_dollars: '0.4300', mean_dollars: '0.4250', previous_dollars: '0.4000' },
    };
    expect(candleFromKalshi(traded, 60_000)).toEqual({
      start: new Date((1_764_410_400 - 60) * 1000), end: new Date(1_764_410_400 * 1000),
      open: '0.42', high: '0.43', low: '0.41', close: '0.43', volume: '12', openInterest: '340',
    });
    const quiet = { ...traded, volume_fp: '0.00', price: { open_dollars: null, low_dollars: null, high_dollars: null, close_dollars: null, mean_dollars: null, previous_dollars: '0.4300' } };
    expect(candleFromKalshi(quiet, 60_000)).toBeNull();
  });

  it('reads a market’s quote: an unquoted side is empty, the last price null before the first trade', () => {
    const market = { yes_bid_dollars: '0.4100', yes_bid_size_fp: '25.00', yes_ask_dollars: '1.0000', yes_ask_size_fp: '0.00', last_price_dollars: '0.0000', volume_fp: '0.00', volume_24h_fp: '0.00', open_interest_fp: '0.00' };
    expect(quoteFromKalshiMarket(market)).toEqual({
      book: { bids: [{ price: '0.41', quantity: '25' }], asks: [] },
      activity: { lastPrice: null, volume: '0', volume24h: '0', openInterest: '0' },
    });
    expect(quoteFromKalshiMarket({ ...market, last_price_dollars: '0.4200', volume_fp: '3.00' })?.activity.lastPrice).toBe('0.42');
  });
});

describe('Polymarket public market data, read into our terms', () => {
  const row = {
    proxyWallet: '0x' + '1'.repeat(40), side: 'SELL', asset: '123', conditionId: '0x' + 'a'.repeat(64), size: 10, price: 0.38, timestamp: 1_764_410_000,
    outcome: 'Yes', outcomeIndex: 0, transactionHash: '0x' + 'b'.repeat(64),
  };

  it('reads a Data API trade in YES terms: the taker who sold YES bought NO; a NO trade at p is YES at 1 - p', () => {
    const sold = tradeFromDataApi(row);
    expect(sold).toMatchObject({ yesPrice: '0.38', quantity: '10', takerSide: 'no', executedAt: new Date(1_764_410_000_000) });
    expect(sold?.id).toMatch(/^pm_[0-9a-f]{24}$/);
    expect(tradeFromDataApi({ ...row, side: 'BUY', outcome: 'No', outcomeIndex: 1, price: 0.62 })).toMatchObject({ yesPrice: '0.38', takerSide: 'no' });
    expect(tradeFromDataApi({ ...row, side: 'HOLD' })).toBeNull();
    expect(tradeFromDataApi({ ...row, price: 1.5 })).toBeNull();
    expect(tradeFromDataApi(row)?.id).toBe(sold?.id);
  });

  it('makes candles of the price history points in each period, without sizes', () => {
    const from = new Date(1_764_410_400_000);
    const to = new Date(from.getTime() + 120_000);
    const t = from.getTime() / 1000;
    const history = { history: [{ t: t - 60, p: 0.5 }, { t, p: 0.41 }, { t: t + 20, p: 0.45 }, { t: t + 40, p: 0.4 }, { t: t + 60, p: 0.43 }] };
    expect(candlesFromHistory(history, 60_000, from, to)).toEqual([
      { start: from, end: new Date(from.getTime() + 60_000), open: '0.41', high: '0.45', low: '0.4', close: '0.4', volume: null, openInterest: null },
      { start: new Date(from.getTime() + 60_000), end: to, open: '0.43', high: '0.43', low: '0.43', close: '0.43', volume: null, openInterest: null },
    ]);
    expect(candlesFromHistory({ history: [{ t: 'x', p: 1 }] }, 60_000, from, to)).toBeNull();
    expect(candlesFromHistory({}, 60_000, from, to)).toBeNull();
  });
});
