import { z } from 'zod';
import { id, strategy, timestamp, venue } from './inputs';
import type { Route } from './route';

/** Execution analytics over final complex orders (docs/execution-analytics.md). */
export const ANALYTICS_ROUTES: Route[] = [
  {
    method: 'GET', path: '/v1/analytics/execution', operation: 'ListExecutionAnalytics', tag: 'Analytics',
    summary: 'List execution analytics (predicted vs realized)',
    description: 'Over the final complex orders created in [from, to): to is now and from 30 days before to by default; from must be earlier than to and the range at most 366 days (else 400, param from). The error of the predicted average price in bps (mean, p50, p90) and predicted vs realized fill rates, overall and by venue, strategy and market. See docs/execution-analytics.md.',
    auth: 'api_key',
    query: z.strictObject({
      from: timestamp.optional(), to: timestamp.optional(), subaccount_id: id('sa').optional(),
      strategy: strategy.optional(), venue: venue.optional(), market_id: id('mkt').optional(),
    }),
    errors: ['invalid_request'],
  },
];
