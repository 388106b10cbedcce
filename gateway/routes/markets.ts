import { z } from 'zod';
import { graphqlEnum } from '../graphqlEnums';
import { depth, id, page, venue } from './inputs';
import type { Route } from './route';

/** The market catalog. */
export const MARKET_ROUTES: Route[] = [
  {
    method: 'GET', path: '/v1/markets', operation: 'SearchMarkets', tag: 'Markets', summary: 'Search markets',
    description: 'Full-text search (every word, as a prefix) over title, ticker, category and description, ranked; without q, catalog order. Catalog answers may be up to CATALOG_CACHE_MS (1 s) old.',
    auth: 'api_key', session: true, catalog: true,
    query: z.strictObject({
      q: z.string().max(200).optional(), venue: venue.optional(),
      status: graphqlEnum('MarketStatus').optional(), category: z.string().max(64).optional(), ...page,
    }),
    errors: ['invalid_request'],
  },
  {
    method: 'GET', path: '/v1/markets/{id}', operation: 'GetMarket', tag: 'Markets', summary: 'Get market', auth: 'api_key', session: true, catalog: true,
    description: 'The market as the catalog has it, up to CATALOG_CACHE_MS (1 s) old; placing an order always checks the current market.',
    params: z.strictObject({ id: id('mkt') }), errors: ['not_found'],
  },
  {
    method: 'GET', path: '/v1/markets/{id}/orderbook', operation: 'GetOrderBook', tag: 'Markets', summary: 'Get order book',
    description:
      'The market’s book read from its venue now (never cached): `depth` levels a side, bids best first and asks best first, in the terms of each outcome: a NO bid at p is a YES ask at 1 - p, so `yes` and `no` are one book and always agree; `mid` is the YES mid, `as_of` when the book was read. A venue that cannot be asked now answers 503 venue_unavailable (docs/market-data.md).',
    auth: 'api_key', session: true,
    params: z.strictObject({ id: id('mkt') }),
    query: z.strictObject({ depth: depth.optional() }),
    errors: ['invalid_request', 'not_found', 'venue_unavailable'],
  },
];
