/**
 * The Polymarket fake's user channel: the authenticated WebSocket that pushes an account's order
 * and trade updates (production: wss://ws-subscriptions-clob.polymarket.com/ws/user; the fake
 * serves it at `/ws/user` on its own port).
 *
 * Protocol (docs.polymarket.com "User Channel", market-data/websocket/user-channel, and its AsyncAPI
 * asyncapi-user.json; "WebSocket overview"; the official client's examples/account/userSocket.ts,
 * github.com/Polymarket/clob-client-v2 at f3e1a05):
 * - the handshake carries no credentials; the first message subscribes:
 *   `{"auth": {"apiKey", "secret", "passphrase"}, "markets": [condition ids], "type": "user"}`.
 *   `markets` empty or absent means every market. Other fields the client sends (`assets_ids`,
 *   `initial_dump`) are accepted and ignored: the fake sends no initial dump.
 * - afterwards `{"operation": "subscribe" | "unsubscribe", "markets": [...]}` adds or removes
 *   markets (AsyncAPI `userSubscriptionRequestUpdate`).
 * - wrong or missing credentials: the server drops the connection without a word. That is what
 *   clients report from the live venue ("Connection to remote host was lost" right after the
 *   subscription: Polymarket/py-clob-client#204 and #206, clob-client#303); the docs say nothing.
 *   The fake terminates the socket (no close frame).
 * - keepalive: the client sends the text `PING` (docs: every 10 s), the server answers the text
 *   `PONG`. The venue's idle timeout is not modelled.
 * - data: one JSON object per frame, `event_type` "order" or "trade" (shapes below, from the
 *   docs' examples and the client's REST `Trade`/`OpenOrder` fields, src/types/clob.ts).
 *   Timestamps are unix seconds as strings, as in the docs' examples.
 * Who hears what: an order event goes to its owner's sockets; a trade to the taker's and every
 * maker's, each with its own `trader_side`, and `owner`/`trade_owner` set to that account's API
 * key. A socket hears a market's events only if it subscribed to it (or to all).
 * A venue-side cancellation at a market's end (exchange.ts `closeCondition`) is a CANCELLATION whose
 * `status` is `INVALID`: what NautilusTrader records from the live venue ("Venue-initiated
 * cancellations arrive as `status=Invalid, event_type=Cancellation` (e.g. sport market
 * resolution)", crates/adapters/polymarket, and its captured test_data/ws_user_order_venue_cancel.json,
 * sent on the hour a market ended); `GET /data/order/{id}` then reads `CANCELED_MARKET_RESOLVED`.
 * Not modelled: the idle timeout, an initial dump, replay on reconnect (the venue has none either:
 * REST is the truth after a reconnect). The market channel is marketChannel.ts.
 */
import type { WebSocket } from 'ws';
import type { OrderEventType } from './events';
import { openOrderJson, tradeJson, traderSide, type FakeAccount, type OrderRecord, type PolymarketEvent, type TradeRecord } from './exchange';

interface Connection {
  readonly socket: WebSocket;
  /** Null until the subscription authenticated. */
  apiKey: string | null;
  /** Condition ids the socket hears; null = every market. */
  markets: Set<string> | null;
}

/** The credentials check the channel asks of its server (the exchange's accounts). */
export type AccountLookup = (apiKey: string) => FakeAccount | undefined;

const seconds = (ms: number) => String(Math.floor(ms / 1000));

export class UserChannel {
  private readonly connections = new Set<Connection>();
  private frozen = false;

  constructor(
    private readonly accounts: AccountLookup,
    private readonly clock: () => number,
  ) {}

  /** Sockets whose subscription authenticated. */
  get subscribedCount(): number {
    return [...this.connections].filter((c) => c.apiKey !== null).length;
  }

  attach(socket: WebSocket): void {
    const connection: Connection = { socket, apiKey: null, markets: null };
    this.connections.add(connection);
    socket.on('message', (data, isBinary) => {
      if (!this.frozen) this.onMessage(connection, isBinary ? '' : data.toString());
    });
    socket.on('close', () => this.connections.delete(connection));
    socket.on('error', () => this.connections.delete(connection));
  }

  publish(event: PolymarketEvent): void {
    if (event.kind === 'order') return this.sendOrder(event.type, event.order);
    this.sendTrade(event.trade);
  }

  /** A raw frame to every subscribed socket of an account (the control API's fault tests). */
  push(apiKey: string, frame: unknown): number {
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    let sent = 0;
    for (const c of this.connections) if (c.apiKey === apiKey && this.send(c, text)) sent += 1;
    return sent;
  }

  /** Terminates every socket (no close frame: what a dropped connection looks like). */
  dropAll(): void {
    for (const c of this.connections) c.socket.terminate();
    this.connections.clear();
  }

  /** While frozen, sockets stay open and nothing is sent: no events, no PONG; what arrives is ignored. */
  setFrozen(frozen: boolean): void {
    this.frozen = frozen;
  }

  close(): void {
    this.dropAll();
  }

  private onMessage(c: Connection, text: string): void {
    if (text === 'PING') {
      this.send(c, 'PONG');
      return;
    }
    let message: Record<string, unknown>;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      message = parsed as Record<string, unknown>;
    } catch {
      if (c.apiKey === null) c.socket.terminate();
      return;
    }
    if (c.apiKey === null) return this.subscribe(c, message);
    const markets = marketsOf(message.markets);
    if (message.operation === 'subscribe' && markets.length > 0) {
      if (c.markets !== null) for (const m of markets) c.markets.add(m);
    } else if (message.operation === 'unsubscribe' && markets.length > 0) {
      if (c.markets === null) c.markets = new Set(); // unsubscribing from "all" leaves nothing subscribed
      for (const m of markets) c.markets.delete(m);
    }
  }

  private subscribe(c: Connection, message: Record<string, unknown>): void {
    const auth = message.auth as Record<string, unknown> | undefined;
    const account = typeof auth?.apiKey === 'string' ? this.accounts(auth.apiKey) : undefined;
    const typeOk = typeof message.type === 'string' && message.type.toLowerCase() === 'user';
    if (!typeOk || account === undefined || auth?.secret !== account.secret || auth?.passphrase !== account.passphrase) {
      c.socket.terminate();
      this.connections.delete(c);
      return;
    }
    c.apiKey = account.apiKey;
    const markets = marketsOf(message.markets);
    c.markets = markets.length === 0 ? null : new Set(markets);
  }

  private hears(c: Connection, apiKey: string, market: string): boolean {
    return c.apiKey === apiKey && (c.markets === null || c.markets.has(market));
  }

  private sendOrder(type: OrderEventType, order: OrderRecord): void {
    const frame = JSON.stringify(orderMessage(type, order, this.clock()));
    for (const c of this.connections) if (this.hears(c, order.apiKey, order.token.conditionId)) this.send(c, frame);
  }

  private sendTrade(trade: TradeRecord): void {
    const accounts = new Set([trade.taker.apiKey, ...trade.makers.map((m) => m.order.apiKey)]);
    for (const apiKey of accounts) {
      const account = this.accounts(apiKey);
      const side = account && traderSide(trade, account);
      if (!side) continue;
      const frame = JSON.stringify({
        ...tradeJson(trade, side),
        event_type: 'trade',
        type: 'TRADE',
        owner: apiKey,
        trade_owner: apiKey,
        timestamp: seconds(this.clock()),
      });
      for (const c of this.connections) if (this.hears(c, apiKey, trade.taker.token.conditionId)) this.send(c, frame);
    }
  }

  private send(c: Connection, text: string): boolean {
    if (this.frozen || c.socket.readyState !== c.socket.OPEN) return false;
    c.socket.send(text);
    return true;
  }
}

function marketsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((m): m is string => typeof m === 'string').map((m) => m.toLowerCase()) : [];
}

/** The docs' order message: the REST OpenOrder fields, plus `event_type`, `type`, `order_owner`, `timestamp`. */
function orderMessage(type: OrderEventType, order: OrderRecord, nowMs: number) {
  const open = openOrderJson(order);
  return {
    ...open,
    event_type: 'order',
    type,
    status: type === 'CANCELLATION' && order.canceledAsMarketResolved === true ? 'INVALID' : open.status,
    order_owner: order.apiKey,
    associate_trades: open.associate_trades.length === 0 ? null : open.associate_trades,
    created_at: String(open.created_at),
    timestamp: seconds(nowMs),
  };
}
