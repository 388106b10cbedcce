/**
 * The JSON shapes the dashboard reads, as the gateway writes them (the snake_case aliases of the
 * persisted operations in contract/operations). Decimals are strings, exact; format.ts rounds them
 * for display, and the exact string stays in the figure's title.
 */

export type Environment = 'test' | 'live';
export const ENVIRONMENTS: readonly Environment[] = ['test', 'live'];

/** The exchanges credentials can be attached for: the core's venue registry's (built apart from the core, so a copy; test/unit/venueLiterals.test.ts keeps it equal). */
export type Exchange = 'kalshi' | 'polymarket';
export const EXCHANGES: readonly Exchange[] = ['kalshi', 'polymarket'];
export type KalshiEnvironment = 'demo' | 'production';

export type Decimal = string;
export type Timestamp = string;

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface Session {
  user: { id: string; email: string; access: 'full' | 'read_only' | string };
  workspace: { id: string; name: string };
  csrf_token: string;
  expires_at: Timestamp;
}

export interface DeadMansSwitch {
  id: string;
  subaccount_id: string | null;
  state: 'armed' | 'fired' | 'disarmed';
  timeout_seconds: number;
  armed_at: Timestamp;
  last_heartbeat_at: Timestamp;
  expires_at: Timestamp;
  fired_at: Timestamp | null;
  firings: number;
  canceling_orders: boolean;
  cancel_completed_at: Timestamp | null;
  orders_canceled: number;
  updated_at: Timestamp;
}

export interface DeadMansSwitches {
  expires_at: Timestamp | null;
  switches: DeadMansSwitch[];
}

export interface Workspace {
  id: string;
  name: string;
  trading_halted: boolean;
  created_at: Timestamp;
}

export interface ApiKey {
  id: string;
  name: string;
  environment: Environment;
  prefix: string;
  last4: string;
  rate_limit: number | null;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

/** POST /v1/api_keys: the key, and its secret, shown this once. */
export interface CreatedApiKey {
  key: ApiKey;
  secret: string;
}

export interface Credential {
  exchange: Exchange;
  fingerprint: string;
  /** Kalshi: where the key was issued; null for Polymarket and for a Kalshi key attached before it was asked. */
  environment: KalshiEnvironment | null;
  created_at: Timestamp;
}

export interface Subaccount {
  id: string;
  name: string;
  environment: Environment;
  status: string;
  cash_balance: Decimal | null;
  created_at: Timestamp;
  credentials: Credential[] | null;
}

export interface RiskLimits {
  subaccount_id: string;
  max_order_notional: Decimal | null;
  max_position_per_market: Decimal | null;
  max_gross_exposure: Decimal | null;
  max_daily_realized_loss: Decimal | null;
  max_open_orders: number | null;
  max_orders_per_minute: number | null;
  trading_halted: boolean;
  updated_at: Timestamp | null;
}

export interface LimitUse {
  limit: string;
  value: string | null;
  current: string | null;
  utilisation: string | null;
}

export interface VenueExposure {
  venue: string;
  gross_exposure: Decimal;
  net_exposure: Decimal;
  market_value: Decimal;
  open_order_notional: Decimal;
  unrealized_pnl: Decimal;
  worst_case_loss: Decimal;
}

export interface MarketExposure {
  market_id: string;
  venue: string;
  yes_quantity: Decimal;
  no_quantity: Decimal;
  net_contracts: Decimal;
  gross_exposure: Decimal;
  net_exposure: Decimal;
  market_value: Decimal;
  unrealized_pnl: Decimal;
  realized_pnl: Decimal;
  open_order_notional: Decimal;
  worst_case_loss: Decimal;
}

export interface RiskStats {
  trading_halted: boolean;
  gross_exposure: Decimal;
  net_exposure: Decimal;
  market_value: Decimal;
  open_order_notional: Decimal;
  realized_pnl: Decimal;
  unrealized_pnl: Decimal;
  worst_case_loss: Decimal;
  largest_market_share: Decimal | null;
  herfindahl: Decimal | null;
  by_venue: VenueExposure[];
  by_market: MarketExposure[];
  limits: { subaccount_id: string; limits: LimitUse[] }[];
}

export interface PnlDay {
  date: string;
  realized_pnl: Decimal;
  cumulative_realized_pnl: Decimal;
  fees: Decimal;
  fills: number;
  volume: Decimal;
}

export interface Order {
  id: string;
  subaccount_id: string;
  market_id: string;
  venue: string;
  side: string;
  action: string;
  type: string;
  time_in_force: string | null;
  price: Decimal | null;
  quantity: Decimal;
  filled_quantity: Decimal;
  remaining_quantity: Decimal;
  average_fill_price: Decimal | null;
  fees_paid: Decimal;
  status: string;
  reject_reason: string | null;
  client_order_id: string | null;
  venue_order_id: string | null;
  queue_position: { orders_ahead: number; quantity_ahead: Decimal } | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** DELETE /v1/orders (cancel many): the orders canceled, as they now are, and those that could not be. */
export interface CanceledOrders {
  canceled: Order[];
  failed: { order_id: string; code: string; message: string }[];
  /** More orders matched than one request cancels: ask again. */
  has_more: boolean;
}

export interface Fill {
  id: string;
  order_id: string;
  subaccount_id: string;
  market_id: string;
  venue: string;
  venue_fill_id: string | null;
  side: string;
  action: string;
  price: Decimal;
  quantity: Decimal;
  fee: Decimal;
  realized_pnl: Decimal | null;
  is_taker: boolean | null;
  created_at: Timestamp;
  /** reversed: the venue's trade failed; the fill no longer counts. */
  status: 'counted' | 'reversed';
  reversed_at: Timestamp | null;
  reversal_reason: string | null;
}

/** A market's settlement of one subaccount's positions in it (GET /v1/settlements). */
export interface Settlement {
  id: string;
  subaccount_id: string;
  market_id: string;
  result: 'yes' | 'no' | 'scalar' | 'void';
  settlement_value: Decimal | null;
  yes_quantity: Decimal;
  no_quantity: Decimal;
  cost_basis: Decimal;
  payout: Decimal;
  fee: Decimal;
  realized_pnl: Decimal;
  venue_reference: string | null;
  settled_at: Timestamp;
  receipt: Record<string, unknown>;
  receipt_hash: string;
}

export interface Position {
  subaccount_id: string;
  market_id: string;
  side: string;
  quantity: Decimal;
  average_cost: Decimal | null;
  /** Exact: what the contracts held cost (average_cost is this over the quantity, for display). */
  cost_basis: Decimal;
  mark_price: Decimal | null;
  realized_pnl: Decimal | null;
  unrealized_pnl: Decimal | null;
  updated_at: Timestamp;
}

/** GET /v1/markets/{id}: the catalog's market (decimals as strings). */
export interface Market {
  id: string;
  venue: string;
  venue_market_id: string;
  title: string;
  description: string | null;
  category: string | null;
  /** open, paused, closed, determined or settled (docs/settlement.md). */
  status: string;
  tick_size: Decimal;
  min_size: Decimal;
  close_time: Timestamp | null;
  /** yes, no, scalar or void once determined. */
  result: string | null;
  /** Dollars a YES contract pays, once determined (null when void). */
  settlement_value: Decimal | null;
  settled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One subaccount's row of GET /v1/portfolio: its cash is the venue's balance for a live subaccount with credentials. */
export interface SubaccountBalance {
  subaccount_id: string;
  cash_balance: Decimal;
  reserved_cash: Decimal;
  available_cash: Decimal;
  positions_cost: Decimal;
  positions_value: Decimal;
  unrealized_pnl: Decimal;
  realized_pnl: Decimal;
  realized_pnl_today: Decimal;
  gross_exposure: Decimal;
  equity: Decimal;
}

/** A market's quote (docs/market-data.md, "Quotes"): the top of its book in YES and NO terms, its tape's activity; a side nobody quotes is null. */
export interface MarketQuote {
  yes_bid: Decimal | null;
  yes_ask: Decimal | null;
  no_bid: Decimal | null;
  no_ask: Decimal | null;
  yes_bid_size: Decimal | null;
  yes_ask_size: Decimal | null;
  no_bid_size: Decimal | null;
  no_ask_size: Decimal | null;
  /** The YES price of the last trade; null before the first. */
  last_price: Decimal | null;
  /** Contracts traded in the last 24 hours, and since the market opened. */
  volume_24h: Decimal | null;
  volume: Decimal | null;
  open_interest: Decimal | null;
  /** When the book behind the quote was read; null when the venue could not be asked. */
  as_of: Timestamp | null;
  /** True when the venue cannot be asked now: the book fields are null, never made up. */
  stale: boolean;
}

/** GET /v1/markets/{id}: the market with its quote. */
export type QuotedMarket = Market & MarketQuote;

/** One price level of a book: the contracts resting at that price. */
export interface BookLevel {
  price: Decimal;
  quantity: Decimal;
}

/** One outcome's view of a book (the market-data stream's snapshot, as GET /v1/markets/{id}/orderbook): bids best (highest) first, asks best (lowest) first. */
export interface SideBook {
  bids: BookLevel[];
  asks: BookLevel[];
}

/** One public trade (GET /v1/markets/{id}/trades): `price` is the YES price, `taker_side` the outcome the taker bought. */
export interface MarketTrade {
  id: string;
  price: Decimal;
  quantity: Decimal;
  taker_side: 'yes' | 'no' | string;
  executed_at: Timestamp;
}

/** The candle intervals GET /v1/markets/{id}/candles takes. */
export type CandleInterval = '1m' | '1h' | '1d';

/** One period's OHLC of the trades' YES prices; `volume` null where the venue gives prices without sizes. */
export interface Candle {
  start: Timestamp;
  end: Timestamp;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  volume: Decimal | null;
  open_interest: Decimal | null;
}

/** GET /v1/markets/{id}/candles: oldest first; a period without a trade is left out. */
export interface Candles {
  market_id: string;
  interval: CandleInterval;
  from: Timestamp;
  to: Timestamp;
  candles: Candle[];
}

/** A change of one level of the book (a `delta`): its new quantity, "0" when the level is gone. */
export interface LevelChange {
  outcome: 'yes' | 'no';
  side: 'bid' | 'ask';
  price: Decimal;
  quantity: Decimal;
}

/** The quote as the market-data stream sends it: without `as_of` (the message's book says when it was read). */
export type StreamedQuote = Omit<MarketQuote, 'as_of'> & { as_of?: Timestamp | null };

/** GET /v1/markets/stream's messages (docs/market-data.md, "The market-data stream"); `seq` one more each message of a market. */
export type MarketStreamMessage =
  | { type: 'snapshot'; market_id: string; seq: number; yes: SideBook; no: SideBook; mid: Decimal | null; quote: StreamedQuote; as_of: Timestamp }
  | { type: 'delta'; market_id: string; seq: number; changes: LevelChange[]; mid: Decimal | null; as_of: Timestamp }
  | { type: 'trade'; market_id: string; seq: number; trade: MarketTrade }
  | { type: 'ticker'; market_id: string; seq: number; quote: StreamedQuote }
  | { type: 'status'; market_id: string; seq: number; stale: boolean; message?: string };
