import { z } from 'zod';
import { decimal, id, marketResult, page, price, timestamp, venue } from './inputs';
import type { Route } from './route';

const settledWindow = {
  since: timestamp.optional().describe('Settled at or after (inclusive). Not later than until (else 400, param since).'),
  until: timestamp.optional().describe('Settled before (exclusive).'),
};

/** Settlements, and the test helpers that close and settle a market of one's own (docs/settlement.md). */
export const SETTLEMENT_ROUTES: Route[] = [
  {
    method: 'GET', path: '/v1/settlements', operation: 'ListSettlements', tag: 'Settlements', summary: 'List settlements',
    description: 'One per subaccount and settled market: both sides of its position closed at the outcome (quantities, exact cost basis, payout, fee, realized P&L = payout - cost basis - fee, booked on the settlement’s UTC day in the P&L history), with a receipt whose receipt_hash is the SHA-256 of the receipt’s RFC 8785 form. Newest first.',
    auth: 'api_key', session: true,
    query: z.strictObject({ subaccount_id: id('sa').optional(), market_id: id('mkt').optional(), ...settledWindow, ...page }),
    errors: ['invalid_request'],
  },
  {
    method: 'POST', path: '/v1/test_helpers/markets', operation: 'CreateTestMarket', tag: 'Test helpers', summary: 'Create a market of your own on a simulated venue',
    description: 'Test keys only (403 forbidden with a live key). The market trades like any simulated market, with the market maker’s liquidity around fair_value, and no other workspace sees it. Close it and settle it with the helpers below.',
    auth: 'api_key', bodyVariable: 'input',
    body: z.strictObject({
      title: z.string().min(1).max(200),
      venue: venue.describe('A simulated venue: sim-kalshi (cent ticks, whole contracts) or sim-polymarket (cent ticks, at least 5 shares).'),
      fair_value: price.optional().describe('YES price the market maker quotes around at first, on the venue’s tick; 0.5 when left out.'),
      closes_at: timestamp.optional().describe('Shown as close_time; the market closes when the close helper is called.'),
      category: z.string().min(1).max(64).optional(),
    }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'forbidden', 'venue_unavailable'],
  },
  {
    method: 'POST', path: '/v1/test_helpers/markets/{id}/close', operation: 'CloseTestMarket', tag: 'Test helpers', summary: 'Close a market of your own',
    description: 'Test keys only. No order is accepted on it from then on (422 market_not_tradable); its resting orders are canceled, their reserved cash released. Closing it again cancels what still rests.',
    auth: 'api_key', params: z.strictObject({ id: id('mkt') }),
    errors: ['not_found', 'forbidden', 'venue_unavailable'],
  },
  {
    method: 'POST', path: '/v1/test_helpers/markets/{id}/settle', operation: 'SettleTestMarket', tag: 'Test helpers', summary: 'Settle a market of your own',
    description: 'Test keys only. Give result (yes, no or void) or settlement_value (dollars per YES contract, 0 to 1: a scalar; NO pays 1 minus it). The market is closed first if it is open; then every position in it is settled: the payout credited to cash, realized P&L booked, one settlement per subaccount (GET /v1/settlements). Void returns each position’s cost basis. A settled market settles nothing again (its first outcome stands).',
    auth: 'api_key', params: z.strictObject({ id: id('mkt') }), bodyVariable: 'input',
    body: z.strictObject({
      result: marketResult.optional().describe('yes, no or void; scalar with its settlement_value.'),
      settlement_value: decimal.optional().describe('Dollars per YES contract, from 0 to 1.'),
    }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'not_found', 'forbidden', 'venue_unavailable', 'conflict'],
  },
];
