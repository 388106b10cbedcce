import { z } from 'zod';
import { MAX_COUNT_LIMIT } from '../../contract/inputBounds';
import { count, day, decimal, id } from './inputs';
import type { Route } from './route';

const riskLimitsBody = z.strictObject({
  max_order_notional: decimal.nullable().optional().describe('Dollars per order; null removes the limit.'),
  max_position_per_market: decimal.nullable().optional().describe('Contracts per market and side.'),
  max_gross_exposure: decimal.nullable().optional().describe('Dollars across all positions and open orders.'),
  max_daily_realized_loss: decimal.nullable().optional().describe('Dollars per UTC day.'),
  max_open_orders: count.nullable().optional().describe(`Orders working at once, 0 to ${MAX_COUNT_LIMIT}; null removes the limit.`),
  max_orders_per_minute: count.nullable().optional().describe(`Orders placed in any 60 seconds, 0 to ${MAX_COUNT_LIMIT}; null removes the limit.`),
});

/** The kill switch, P&L history, risk statistics and each subaccount's risk limits. */
export const RISK_ROUTES: Route[] = [
  {
    method: 'PUT', path: '/v1/risk/kill_switch', operation: 'SetKillSwitch', tag: 'Risk', summary: 'Turn the workspace kill switch on or off',
    description: 'While on, every new order of the workspace (test and live) is rejected with risk_limit_exceeded, limit kill_switch.',
    auth: 'api_key', session: true, body: z.strictObject({ enabled: z.boolean() }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type'],
  },
  {
    method: 'GET', path: '/v1/risk/pnl_history', operation: 'GetPnlHistory', tag: 'Risk', summary: 'Get daily realized P&L history',
    description: 'Realized P&L (fees included) per UTC day from `from` to `to` (both included), every day of the range present, with the running total. from must not be later than to, and the range covers at most 3,660 days (else 400, param from).',
    auth: 'api_key', session: true,
    query: z.strictObject({
      subaccount_id: id('sa').optional(),
      from: day('First UTC day (YYYY-MM-DD); 29 days before `to` by default.').optional(),
      to: day('Last UTC day (YYYY-MM-DD); today by default.').optional(),
    }),
    errors: ['invalid_request', 'not_found'],
  },
  {
    method: 'GET', path: '/v1/risk/stats', operation: 'GetRiskStats', tag: 'Risk', summary: 'Get portfolio risk statistics',
    description: 'Gross and net exposure by venue and market, concentration, open-order notional, realized and unrealized P&L, the worst case of the binary payoffs, and each subaccount’s use of its risk limits.',
    auth: 'api_key', session: true, query: z.strictObject({ subaccount_id: id('sa').optional() }), errors: ['invalid_request', 'not_found'],
  },
  {
    method: 'GET', path: '/v1/risk_limits/{subaccount_id}', operation: 'GetRiskLimits', tag: 'Risk limits',
    summary: 'Get subaccount risk limits', auth: 'api_key', session: true, params: z.strictObject({ subaccount_id: id('sa') }), errors: ['not_found'],
  },
  {
    method: 'PUT', path: '/v1/risk_limits/{subaccount_id}', operation: 'UpdateRiskLimits', tag: 'Risk limits',
    summary: 'Update subaccount risk limits',
    description: 'Fields left out keep their value; null removes a limit; 0 forbids what the limit measures.',
    auth: 'api_key', session: true, params: z.strictObject({ subaccount_id: id('sa') }), body: riskLimitsBody, bodyVariable: 'input',
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'not_found'],
  },
];
