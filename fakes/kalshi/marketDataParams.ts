/**
 * The parameters of Kalshi's WebSocket commands for the public market-data channels, read and
 * checked (asyncapi.yaml 2.0.0, 2026: subscribeCommandPayload, updateSubscriptionCommandPayload;
 * error codes from its table and the docs' "WebSocket Error Codes"):
 * - `market_ticker` (string) and `market_tickers` (array of strings) name markets on every
 *   market-data channel; `market_id` / `market_ids` (UUIDs) only on `ticker` ("market_id/market_ids
 *   are not supported for this channel" on orderbook_delta). The two forms are documented as
 *   mutually exclusive; the fake takes their union.
 * - `orderbook_delta` needs a market: code 14 "Market Ticker required". `ticker` and `trade`
 *   without one carry every market.
 * - A field of the wrong JSON type is code 1 "Unable to process message" ("a JSON field had a type
 *   incompatible with the WebSocket command schema"); a malformed market ID is code 11 "Invalid
 *   parameter".
 * - `update_subscription` names its subscription by `sid` or a one-element `sids`, not both:
 *   otherwise code 12 "Exactly one subscription ID is required"; no `action` is code 15.
 * A ticker the fake does not know is not an error: the retired code 16 "Market not found" is no
 * longer emitted, so such a market is simply carried and never has data.
 */

export interface CommandError {
  readonly code: number;
  readonly msg: string;
}

export const UNABLE_TO_PROCESS: CommandError = { code: 1, msg: 'Unable to process message' };
export const INVALID_PARAMETER: CommandError = { code: 11, msg: 'Invalid parameter' };
export const EXACTLY_ONE_SID: CommandError = { code: 12, msg: 'Exactly one subscription ID is required' };
export const UNSUPPORTED_ACTION: CommandError = { code: 13, msg: 'Unsupported action' };
export const MARKET_TICKER_REQUIRED: CommandError = { code: 14, msg: 'Market Ticker required' };
export const ACTION_REQUIRED: CommandError = { code: 15, msg: 'Action required' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isError = (x: unknown): x is CommandError => typeof x === 'object' && x !== null && 'code' in x && 'msg' in x;

function strings(value: unknown): string[] | CommandError | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return UNABLE_TO_PROCESS;
  return value as string[];
}

function optionalString(value: unknown): string | CommandError | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : UNABLE_TO_PROCESS;
}

export function optionalBoolean(value: unknown): boolean | CommandError {
  if (value === undefined) return false;
  return typeof value === 'boolean' ? value : UNABLE_TO_PROCESS;
}

/**
 * The markets a command names: tickers, plus the tickers of `market_id(s)` when `byId` resolves
 * them (null for a channel that does not take IDs). Undefined when it names none.
 */
export function namedMarkets(params: Record<string, unknown>, byId: ((id: string) => string | undefined) | null): string[] | CommandError | undefined {
  const one = optionalString(params.market_ticker);
  const many = strings(params.market_tickers);
  if (isError(one)) return one;
  if (isError(many)) return many;
  const tickers = [...(one === undefined ? [] : [one]), ...(many ?? [])];
  let named = one !== undefined || many !== undefined;
  if (byId !== null) {
    const id = optionalString(params.market_id);
    const ids = strings(params.market_ids);
    if (isError(id)) return id;
    if (isError(ids)) return ids;
    const allIds = [...(id === undefined ? [] : [id]), ...(ids ?? [])];
    if (allIds.some((i) => !UUID.test(i))) return INVALID_PARAMETER;
    for (const i of allIds) {
      const ticker = byId(i);
      if (ticker !== undefined) tickers.push(ticker);
    }
    named = named || id !== undefined || ids !== undefined;
  }
  return named ? [...new Set(tickers)] : undefined;
}

/** The one subscription an `update_subscription` names. */
export function singleSid(params: Record<string, unknown>): number | CommandError {
  const { sid, sids } = params;
  if (sid !== undefined && sids !== undefined) return EXACTLY_ONE_SID;
  if (sid !== undefined) return typeof sid === 'number' ? sid : UNABLE_TO_PROCESS;
  if (!Array.isArray(sids)) return sids === undefined ? EXACTLY_ONE_SID : UNABLE_TO_PROCESS;
  if (sids.length !== 1) return EXACTLY_ONE_SID;
  return typeof sids[0] === 'number' ? sids[0] : UNABLE_TO_PROCESS;
}

export { isError as isCommandError };
