/**
 * The Polymarket fake's test-control API under `/_fake/` (only when started with
 * `controlApi: true`). Not part of Polymarket's API; JSON in, JSON out, no authentication.
 *
 *   POST   /_fake/accounts  {api_key, secret, passphrase, signer_address, signature_type?, funder_address?}
 *                           register an API key and the account behind it (signature type 0 EOA by
 *                           default; the funder defaults to the signer, and is required for 1, 2, 3)
 *   POST   /_fake/tokens    {token_id, condition_id, outcome?, tick_size, min_order_size, neg_risk?}
 *   POST   /_fake/trades/{trade_id}/status  {status: MINED|CONFIRMED|RETRYING|FAILED}
 *   POST   /_fake/faults    {kind, ms?, place_before_delay?, status?, method?, path_prefix?, times?}
 *   DELETE /_fake/faults
 *   GET    /_fake/requests  what arrived: method, path, API key (when verified), status, refusal reason
 *   GET    /_fake/orders    every order the exchange holds
 *   POST   /_fake/orders    {token_id, side: BUY|SELL, price, size, type?: GTC|FOK|FAK, post_only?, api_key?}
 *                           another participant's order, unsigned, through the same book (the fake
 *                           market maker's when no api_key; its wallet is given what the order needs);
 *                           answered as POST /order answers
 *   DELETE /_fake/orders/{order_id}?api_key=...   cancel it (the market maker's when no api_key)
 *   POST   /_fake/books/seed {levels?, level_spacing?, base_size?, size_increment?}
 *                           (re)seed every book with the market maker's ladder
 *
 * Fault kinds are the Kalshi fake's (fakes/faults.ts), reused as they are; a rule's path_prefix
 * may name a Data API path (`/data-api/positions`). The user channel's, settlement's and
 * heartbeats' controls are streamControl.ts's; markets closing, resolving and redemptions
 * (`/_fake/markets/{condition_id}/close|propose|dispute|resolve`, `/_fake/wallets/{address}/redeem`,
 * `/_fake/data-api`) are resolutionControl.ts's; the market channel's faults and a token's tick size
 * change (`/_fake/market-channel/...`, `/_fake/tokens/{token_id}/tick-size`) are
 * marketDataControl.ts's.
 */
import { getAddress } from 'viem';
import { z } from 'zod';
import { faultFromBody, type FaultRule } from '../faults';
import type { ClobAnswer } from './errors';
import type { CounterOrder, FakeAccount, OrderRecord, PolymarketExchange, TradeStatus } from './exchange';
import type { SeededQuote } from './marketMaker';
import { seedBooksOptionsFrom, type SeedBooksOptions } from '../seedBooks';
import { isTickSize, type TokenSeed } from './markets';
import { handleResolutionControl, type ResolutionControls } from './resolutionControl';
import { handleStreamControl, type StreamControls } from './streamControl';
import { handleMarketDataControl, type MarketDataControls } from './marketDataControl';

const answer = (status: number, body: unknown): ClobAnswer => ({ status, body });
const bad = (message: string): ClobAnswer => answer(400, { error: message });

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/).transform((v) => getAddress(v.toLowerCase()));

const accountBody = z
  .object({
    api_key: z.string().min(1),
    secret: z.string().regex(/^[A-Za-z0-9+/_=-]+$/, 'secret must be base64 or base64url'),
    passphrase: z.string().min(1),
    signer_address: address,
    signature_type: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).default(0),
    funder_address: address.optional(),
  })
  .refine((b) => b.signature_type === 0 || b.funder_address !== undefined, { message: 'funder_address is required for signature types 1, 2 and 3' });

const tokenBody = z.object({
  token_id: z.string().regex(/^[0-9]{1,78}$/),
  condition_id: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  outcome: z.string().default('Yes'),
  tick_size: z.string().refine(isTickSize, 'tick_size must be one of 0.1, 0.01, 0.005, 0.0025, 0.001, 0.0001'),
  min_order_size: z.string().regex(/^[0-9]+(\.[0-9]{1,2})?$/),
  neg_risk: z.boolean().default(false),
  mid: z.string().regex(/^0\.[0-9]{1,6}$/).optional(),
});

const counterOrderBody = z.object({
  api_key: z.string().min(1).optional(),
  token_id: z.string().regex(/^[0-9]{1,78}$/),
  side: z.enum(['BUY', 'SELL']),
  price: z.string().regex(/^[0-9]+(\.[0-9]+)?$/, 'price must be a decimal string such as "0.46"'),
  size: z.string().regex(/^[0-9]+(\.[0-9]{1,2})?$/, 'size must be a decimal string of shares such as "10"'),
  type: z.enum(['GTC', 'FOK', 'FAK']).default('GTC'),
  post_only: z.boolean().default(false),
});

/** What the control API drives: the fake server (server.ts), named here so the two do not import each other. */
export interface PolymarketFakeControls {
  readonly exchange: PolymarketExchange;
  readonly requests: readonly unknown[];
  addAccount(account: FakeAccount): void;
  addToken(token: TokenSeed): void;
  readonly marketMaker: string;
  seedBooks(options?: SeedBooksOptions): SeededQuote[];
  placeOrderAs(apiKey: string, order: CounterOrder): ClobAnswer;
  cancelOrderAs(apiKey: string, orderId: string): ClobAnswer;
  injectFault(rule: FaultRule): void;
  clearFaults(): void;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.join('.') || 'body'}: ${issue.message}`;
}

/** `path` has no query string; the query's parameters come in `query`. */
export function handleControl(fake: PolymarketFakeControls & StreamControls & ResolutionControls & MarketDataControls, method: string, path: string, raw: string, query: URLSearchParams = new URLSearchParams()): ClobAnswer {
  let body: Record<string, unknown> = {};
  if (raw !== '') {
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return bad('body must be a JSON object');
      body = parsed as Record<string, unknown>;
    } catch {
      return bad('body must be a JSON object');
    }
  }

  const live = handleStreamControl(fake, method, path, body);
  if (live !== undefined) return live;
  const resolution = handleResolutionControl(fake, method, path, body);
  if (resolution !== undefined) return resolution;
  const marketData = handleMarketDataControl(fake, method, path, body);
  if (marketData !== undefined) return marketData;
  if (method === 'POST' && path === '/_fake/accounts') {
    const parsed = accountBody.safeParse(body);
    if (!parsed.success) return bad(firstIssue(parsed.error));
    const b = parsed.data;
    fake.addAccount({
      apiKey: b.api_key,
      secret: b.secret,
      passphrase: b.passphrase,
      ownerAddress: b.signer_address,
      signatureType: b.signature_type,
      funderAddress: b.funder_address ?? b.signer_address,
    });
    // Never echo the secret or passphrase.
    return answer(200, { api_key: b.api_key, signer_address: b.signer_address, signature_type: b.signature_type, funder_address: b.funder_address ?? b.signer_address });
  }
  if (method === 'POST' && path === '/_fake/tokens') {
    const parsed = tokenBody.safeParse(body);
    if (!parsed.success) return bad(firstIssue(parsed.error));
    const b = parsed.data;
    fake.addToken({ tokenId: b.token_id, conditionId: b.condition_id.toLowerCase(), outcome: b.outcome, tickSize: b.tick_size as TokenSeed['tickSize'], minOrderSize: b.min_order_size, negRisk: b.neg_risk, ...(b.mid === undefined ? {} : { mid: b.mid }) });
    return answer(200, { token_id: b.token_id });
  }
  const tradeStatus = /^\/_fake\/trades\/([^/]+)\/status$/.exec(path);
  if (method === 'POST' && tradeStatus) {
    const status = z.enum(['MINED', 'CONFIRMED', 'RETRYING', 'FAILED']).safeParse(body.status);
    if (!status.success) return bad('status must be MINED, CONFIRMED, RETRYING or FAILED');
    const result = fake.exchange.setTradeStatus(decodeURIComponent(tradeStatus[1]!), status.data as TradeStatus);
    if (!result.ok) return answer(result.reason === 'unknown trade' ? 404 : 409, { error: result.reason });
    return answer(200, { id: result.trade.id, status: result.trade.status, transaction_hash: result.trade.transactionHash });
  }
  if (method === 'POST' && path === '/_fake/faults') {
    const fault = faultFromBody(body);
    if (typeof fault === 'string') return bad(fault);
    const times = body.times === 'infinite' ? Infinity : typeof body.times === 'number' ? body.times : 1;
    const str = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);
    fake.injectFault({ fault, method: str('method'), pathPrefix: str('path_prefix'), times });
    return answer(200, { ok: true });
  }
  if (method === 'DELETE' && path === '/_fake/faults') {
    fake.clearFaults();
    return answer(200, { ok: true });
  }
  if (method === 'GET' && path === '/_fake/requests') return answer(200, { requests: fake.requests });
  if (method === 'POST' && path === '/_fake/orders') {
    const parsed = counterOrderBody.safeParse(body);
    if (!parsed.success) return bad(firstIssue(parsed.error));
    const b = parsed.data;
    return fake.placeOrderAs(b.api_key ?? fake.marketMaker, { tokenId: b.token_id, side: b.side, price: b.price, size: b.size, orderType: b.type, postOnly: b.post_only });
  }
  if (method === 'DELETE' && path.startsWith('/_fake/orders/')) {
    const orderId = path.slice('/_fake/orders/'.length);
    const apiKey = query.get('api_key') ?? (typeof body.api_key === 'string' ? body.api_key : fake.marketMaker);
    return fake.cancelOrderAs(apiKey, decodeURIComponent(orderId));
  }
  if (method === 'POST' && path === '/_fake/books/seed') {
    const options = seedBooksOptionsFrom(body);
    if (typeof options === 'string') return bad(options);
    const quotes = fake.seedBooks(options);
    const refused = quotes.filter((q) => q.answer.status !== 200);
    return answer(200, {
      api_key: fake.marketMaker,
      placed: quotes.length - refused.length,
      refused: refused.map((q) => ({ token_id: q.tokenId, side: q.side, price: q.price, size: q.size, answer: q.answer.body })),
    });
  }
  if (method === 'GET' && path === '/_fake/orders') {
    return answer(200, {
      orders: fake.exchange.allOrders().map((o: OrderRecord) => ({ id: o.id, api_key: o.apiKey, asset_id: o.token.tokenId, side: o.side, price: o.price, status: o.status, order_type: o.orderType })),
    });
  }
  return answer(404, { error: 'unknown control route' });
}
