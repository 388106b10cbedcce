/**
 * A Kalshi V2 create-order body (`POST /portfolio/events/orders`) as a client sends it: a
 * good-till-canceled bid for 10 YES at 0.56. Tests override what they are about.
 */
export function v2OrderBody(ticker: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ticker,
    side: 'bid',
    count: '10.00',
    price: '0.5600',
    time_in_force: 'good_till_canceled',
    self_trade_prevention_type: 'taker_at_cross',
    ...overrides,
  };
}
