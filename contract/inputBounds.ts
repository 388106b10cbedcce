/**
 * Bounds of numeric inputs that both edges enforce: the gateway's route schemas say them (and the
 * OpenAPI document shows them), the core's rules refuse anything past them that reaches it another
 * way (the analysts' GraphQL). One number each, here.
 */

/** Lists: `limit` 1..MAX_PAGE_LIMIT (50 when left out). */
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;

/**
 * The largest count limit (max_open_orders, max_orders_per_minute). The columns are PostgreSQL
 * integers and GraphQL's Int is 32-bit, both up to 2^31-1; a billion is far beyond any use
 * (docs/api-conventions.md).
 */
export const MAX_COUNT_LIMIT = 1_000_000_000;

/** A dead-man's switch's timeout, whole seconds: at least 1 s, at most an hour. */
export const MIN_SWITCH_TIMEOUT_SECONDS = 1;
export const MAX_SWITCH_TIMEOUT_SECONDS = 3600;

/** How long a webhook's previous secret keeps signing after a rotation when the request does not say (a day). */
export const DEFAULT_PREVIOUS_SECRET_SECONDS = 86_400;
/** The longest a previous secret may keep signing after a rotation (7 days). */
export const MAX_PREVIOUS_SECRET_SECONDS = 7 * 86_400;

/** The levels a side of an order book read answers when none is asked (the REST book, the market-data stream, a venue's read). */
export const DEFAULT_BOOK_DEPTH = 10;
/** The most levels a side of an order book read answers (GET /v1/markets/{id}/orderbook `depth`). */
export const MAX_BOOK_DEPTH = 100;

/** The candle periods served (GET /v1/markets/{id}/candles `interval`), in milliseconds: a minute, an hour, a UTC day. */
export const CANDLE_INTERVALS = { '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000 } as const;
/** The candle periods as the GraphQL enum CandleInterval names them (a name cannot start with a digit): minute is 1m in REST. */
export const CANDLE_INTERVAL_NAMES = { '1m': 'minute', '1h': 'hour', '1d': 'day' } as const satisfies Record<keyof typeof CANDLE_INTERVALS, string>;
/** A candle interval's REST spelling (1m) of its GraphQL name (minute); a name of no interval as it is. */
export const candleIntervalOfName = (name: string): string => Object.entries(CANDLE_INTERVAL_NAMES).find(([, named]) => named === name)?.[0] ?? name;
/** The most periods one candle read spans. */
export const MAX_CANDLE_PERIODS = 1000;

/** The most orders one batch places (POST /v1/orders/batch, the core's placeOrders). */
export const MAX_ORDERS_PER_BATCH = 20;
