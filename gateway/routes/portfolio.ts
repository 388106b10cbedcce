import { z } from 'zod';
import { id, page } from './inputs';
import type { Route } from './route';

/** Positions and balances. */
export const PORTFOLIO_ROUTES: Route[] = [
  {
    method: 'GET', path: '/v1/positions', operation: 'ListPositions', tag: 'Positions', summary: 'List positions',
    description: 'Open positions per subaccount, market and side (in that order, paged), with average cost, realized and unrealized P&L (marked to the venue mid).',
    auth: 'api_key', session: true, query: z.strictObject({ subaccount_id: id('sa').optional(), market_id: id('mkt').optional(), ...page }),
    errors: ['invalid_request', 'not_found'],
  },
  {
    method: 'GET', path: '/v1/portfolio', operation: 'GetPortfolio', tag: 'Portfolio', summary: 'Get balances and exposure',
    description: 'Per subaccount: cash, cash reserved by open buys, positions at cost and marked, realized and unrealized P&L, gross exposure, equity.',
    auth: 'api_key', session: true, query: z.strictObject({ subaccount_id: id('sa').optional() }), errors: ['invalid_request', 'not_found'],
  },
];
