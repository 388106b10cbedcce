import { z } from 'zod';
import { graphqlEnum } from '../graphqlEnums';
import { candleIntervalOfName, MAX_CANDLE_PERIODS } from '../../contract/inputBounds';
import { createdWindow, depth, id, page, timestamp, venue } from './inputs';
import type { Route } from './route';

/** The most markets one market-data stream follows. */
const MAX_STREAMED_MARKETS = 20;

const marketIds = z
  .string()
  .max(MAX_STREAMED_MARKETS * 65)
  .transform((value) => value.split(','))
  .pipe(z.array(id('mkt')).min(1).max(MAX_STREAMED_MARKETS))
  .describe(`Comma-separated market ids, 1 to ${MAX_STREAMED_MARKETS}.`)
  .meta({ type: 'string', pattern: undefined });

/** The market catalog. */
export const MARKET_ROUTES: Route[] = [
  {
    method: 'GET', path: '/v1/markets/stream', operation: 'GetMarketDataState', marketStream: true, tag: 'Markets', summary: 'Stream market data (Server-Sent Events)',
    description:
      'Books, trades and quotes of up to 20 markets as Server-Sent Events (docs/market-data.md, "The market-data stream"). Per market: first a `snapshot` (both outcomes\u2019 books to `depth` levels, the quote), then `delta` (the levels whose quantity changed, "0" when gone, in YES and NO terms), `trade` (each new public trade), `ticker` (the quote changed) and `status` (`stale` when the market cannot be read, then a fresh snapshot); every message carries `market_id` and `seq`, one more per message of that market. A client too slow to read skips messages and then gets a fresh snapshot (seq jumps: replace the book); a new connection starts with snapshots. Counted with the event streams (EVENT_STREAMS_PER_KEY); a stream ends after EVENT_STREAM_MAX_AGE_MS (reconnect). Updates follow our orders at once and the venues\u2019 own changes within MARKET_STREAM_POLL_MS.',
    auth: 'api_key', session: true,
    query: z.strictObject({ market_ids: marketIds, depth: depth.optional() }),
    errors: ['invalid_request', 'not_found', 'venue_unavailable', 'rate_limited'],
  },
  {
    method: 'GET', path: '/v1/markets', operation: 'SearchMarkets', tag: 'Markets', summary: 'Search markets',
    description: 'Full-text search (every word, as a prefix) over title, ticker, category and description, ranked; without q, catalog order; `sort=volume`: most traded first. Each market carries its quote (top of book in YES and NO terms, last price, volumes, `as_of`, `stale`: docs/market-data.md). Catalog answers may be up to CATALOG_CACHE_MS (1 s) old.',
    auth: 'api_key', session: true, catalog: true,
    query: z.strictObject({
      q: z.string().max(200).optional(), venue: venue.optional(),
      status: graphqlEnum('MarketStatus').optional(), category: z.string().max(64).optional(),
      sort: graphqlEnum('MarketSort').optional().describe('volume: most contracts traded first (with q: among the matches). Left out: ranked with q, catalog order without.'),
      ...page,
    }),
    errors: ['invalid_request'],
  },
  {
    method: 'GET', path: '/v1/markets/{id}', operation: 'GetMarket', tag: 'Markets', summary: 'Get market', auth: 'api_key', session: true, catalog: true,
    description: 'The market as the catalog has it, with its quote (top of book in YES and NO terms, last price, volumes, `as_of`, `stale`: docs/market-data.md), up to CATALOG_CACHE_MS (1 s) old; placing an order always checks the current market.',
    params: z.strictObject({ id: id('mkt') }), errors: ['not_found'],
  },
  {
    method: 'GET', path: '/v1/market_events', operation: 'ListMarketEvents', tag: 'Markets', summary: 'Search market events',
    description: 'Markets grouped as their venue groups them: Kalshi events (with their series), Polymarket events, the simulated venues’ groups (docs/market-data.md, "Events"). Every word of q as a prefix over the title, the venue’s event id and the category; exact venue and category filters; id order. Not the workspace’s event log, which is GET /v1/events.',
    auth: 'api_key', session: true, catalog: true,
    query: z.strictObject({ q: z.string().max(200).optional(), venue: venue.optional(), category: z.string().max(64).optional(), ...page }),
    errors: ['invalid_request'],
  },
  {
    method: 'GET', path: '/v1/market_events/{id}', operation: 'GetMarketEvent', tag: 'Markets', summary: 'Get market event',
    description: 'One venue event with its markets (the ones the key sees, with their quotes, at most 200, in id order).',
    auth: 'api_key', session: true, catalog: true,
    params: z.strictObject({ id: id('mev') }),
    errors: ['not_found'],
  },
  {
    method: 'GET', path: '/v1/markets/{id}/orderbook', operation: 'GetOrderBook', bookCache: true, tag: 'Markets', summary: 'Get order book',
    description:
      'The market’s book as its venue has it now: a live venue’s from its feed when current, else read on the request; a simulated venue’s book, which moves only by orders placed here, is kept by the gateway until the next order or cancel on the market is announced. `depth` levels a side, bids best first and asks best first, in the terms of each outcome: a NO bid at p is a YES ask at 1 - p, so `yes` and `no` are one book and always agree; `mid` is the YES mid; `as_of` the book’s last change where the venue says (a simulated venue, a live feed), else when it was read; `stale` true only for a live feed’s last book answered because the venue cannot be read. A venue that cannot be asked now answers 503 venue_unavailable (docs/market-data.md).',
    auth: 'api_key', session: true,
    params: z.strictObject({ id: id('mkt') }),
    query: z.strictObject({ depth: depth.optional() }),
    errors: ['invalid_request', 'not_found', 'venue_unavailable'],
  },
  {
    method: 'GET', path: '/v1/markets/{id}/trades', operation: 'ListMarketTrades', tag: 'Markets', summary: 'List market trades',
    description:
      'The market’s public trades, newest first, read now: the venue’s own tape (Kalshi, Polymarket), or, on a simulated venue, every trade of its book (each has one of our orders as taker). `price` is the YES price (the NO price is 1 minus it); `taker_side` the outcome the taker bought (a taker selling YES bought NO). Window: since inclusive, until exclusive (docs/market-data.md).',
    auth: 'api_key', session: true,
    params: z.strictObject({ id: id('mkt') }),
    query: z.strictObject({ since: createdWindow.since.describe('Executed at or after (inclusive). Not later than until (else 400, param since).'), until: createdWindow.until.describe('Executed before (exclusive).'), ...page }),
    errors: ['invalid_request', 'not_found', 'venue_unavailable'],
  },
  {
    method: 'GET', path: '/v1/markets/{id}/candles', operation: 'GetMarketCandles', tag: 'Markets', summary: 'Get market candles',
    description:
      `The market’s OHLCV candles in YES prices, oldest first: \`interval\` 1m, 1h or 1d (periods start at whole UTC minutes, hours, days), \`from\` (100 periods before \`to\` when left out) to \`to\` (now when left out), at most ${MAX_CANDLE_PERIODS} periods. A period without a trade is left out. Built from the venue’s own candles or price history (Kalshi, Polymarket), or from the trades of a simulated venue; \`volume\` is null where the venue gives prices without sizes, \`open_interest\` where it does not give it (docs/market-data.md).`,
    auth: 'api_key', session: true,
    params: z.strictObject({ id: id('mkt') }),
    query: z.strictObject({
      interval: graphqlEnum('CandleInterval', candleIntervalOfName).describe('1m, 1h or 1d.'),
      from: timestamp.optional().describe('From the period holding this instant.'),
      to: timestamp.optional().describe('Up to the end of the period holding this instant; now when left out.'),
    }),
    errors: ['invalid_request', 'not_found', 'venue_unavailable'],
  },
];
