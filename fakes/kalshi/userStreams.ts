/**
 * The fake's authenticated WebSocket, Kalshi Trade API v2 `/trade-api/ws/v2`: the private
 * channels `fill` and `user_orders`, and `market_lifecycle_v2`.
 *
 * Protocol (docs.kalshi.com websockets "Connection", "Subscribe", "Errors"; recorded
 * frames in XavierBriggs/Fortuna fixtures/kalshi ws__*.jsonl, 2026-06-11):
 * - the handshake is signed like REST over `timestamp + "GET" + "/trade-api/ws/v2"`;
 * - command `{"id": 1, "cmd": "subscribe", "params": {"channels": ["fill", "user_orders"]}}`
 *   answers one `{"type": "subscribed", "id": 1, "msg": {"channel": "fill", "sid": 1}}` per channel;
 * - data `{"type": "fill" | "user_order", "sid": n, "seq": k, "msg": {...}}` (the
 *   `user_orders` channel's frames are typed `user_order`), seq counting per sid;
 * - `{"id": 2, "cmd": "unsubscribe", "params": {"sids": [1]}}` answers
 *   `{"type": "unsubscribed", "id": 2, "sid": 1, "seq": <the last seq sent on it>}`;
 * - errors `{"type": "error", "id": n, "msg": {"code": c, "msg": "..."}}` with Kalshi's
 *   codes (1 unable to process, 2 params required, 3 channels required, 4 sids required,
 *   5 unknown command, 6 already subscribed, 7 unknown sid, 8 unknown channel);
 * - the server pings every 10 s with payload "heartbeat" (recorded: 8 pings in 90 s).
 * A `user_order` goes out on every change of an order (docs "Updates sent when your orders are
 * created, filled, canceled, or otherwise updated", user-orders page 2026-08): created, filled,
 * canceled, amended, decreased.
 * Messages are account-scoped: every socket of the account sees its fills and orders.
 * `market_lifecycle_v2` is not: every socket subscribed to it gets every market's notice, framed
 * `{"type": "market_lifecycle_v2", "sid", "seq", "msg": {"market_ticker", "event_type", ...}}`
 * (docs.kalshi.com websockets/market-and-event-lifecycle, AsyncAPI 2026: `seq` required; the
 * optional `sending_ts_ms` is not sent). A notice is delivered as the control API asks
 * (lifecycle.ts NoticeDelivery): once, not at all, several times (each copy its own frame and
 * seq, as Kalshi's duplicate `settled` messages), or after a delay. A socket subscribed when the
 * notice is published gets it; a late copy goes to whoever is subscribed when it leaves.
 * The public market-data channels `orderbook_delta`, `ticker` and `trade` share the connection
 * and its sids; marketDataFeed.ts serves them, with `update_subscription` (add_markets,
 * delete_markets, get_snapshot) and their faults (a sequence gap, a frozen feed). `list_subscriptions`
 * answers `{"type": "ok", "id", "msg": [{"channel", "sid"}, ...]}` and `unsubscribed` carries the
 * subscription's last `seq` (asyncapi.yaml 2.0.0, 2026: listSubscriptionsResponsePayload,
 * unsubscribedResponsePayload requires `seq`).
 * Not modelled: the `event_lifecycle` and `event_fee_update` messages of the lifecycle channel,
 * market_tickers filters on private channels, replay on resubscribe (Kalshi does not replay either).
 */
import type { WebSocket } from 'ws';
import type { MarketNotice, UserEvent } from './exchange';
import type { MarketDataEvent, MarketDataSource } from './marketDataEvents';
import { MARKET_DATA_CHANNELS, MarketDataFeed, type FeedConnection, type Subscription } from './marketDataFeed';

const LIFECYCLE = 'market_lifecycle_v2';
const CHANNELS = new Set(['fill', 'user_orders', LIFECYCLE, ...MARKET_DATA_CHANNELS]);
const DATA_TYPE: Readonly<Record<string, string>> = { fill: 'fill', user_orders: 'user_order', [LIFECYCLE]: LIFECYCLE };

interface Connection extends FeedConnection {
  readonly socket: WebSocket;
}

export class UserStreams {
  private readonly connections = new Set<Connection>();
  private frozen = false;
  private readonly pinger: NodeJS.Timeout;
  /** Late lifecycle notices not yet sent. */
  private readonly lateNotices = new Set<NodeJS.Timeout>();
  /** The public market-data channels and their faults. */
  readonly marketData: MarketDataFeed;

  constructor(pingIntervalMs: number, source: MarketDataSource, now: () => number) {
    this.pinger = setInterval(() => this.pingAll(), pingIntervalMs);
    this.pinger.unref();
    this.marketData = new MarketDataFeed(source, () => this.connections, now);
  }

  get openCount(): number {
    return this.connections.size;
  }

  attach(socket: WebSocket, userId: string): void {
    const connection: Connection = {
      socket,
      userId,
      subscriptions: new Map(),
      nextSid: 1,
      send: (frame) => {
        if (!this.frozen) this.send(connection, frame);
      },
      error: (id, code, msg) => this.error(connection, id, code, msg),
    };
    this.connections.add(connection);
    socket.on('message', (data) => {
      if (!this.frozen) this.onCommand(connection, data.toString());
    });
    socket.on('ping', (payload) => {
      if (!this.frozen) socket.pong(payload);
    });
    socket.on('close', () => this.connections.delete(connection));
    socket.on('error', () => this.connections.delete(connection));
  }

  publish(userId: string, event: UserEvent): void {
    if (this.frozen) return;
    for (const c of this.connections) {
      if (c.userId !== userId) continue;
      this.sendOn(c, event.channel, event.msg);
    }
  }

  /** A public market-data event (book change, trade, ticker change) to the subscribed sockets. */
  publishMarketData(event: MarketDataEvent): void {
    if (!this.frozen) this.marketData.publish(event);
  }

  /** A `market_lifecycle_v2` notice to every subscribed socket, delivered as the notice says. */
  publishNotice(notice: MarketNotice): void {
    const { delivery, msg } = notice;
    if (delivery.kind === 'lost') return;
    if (delivery.kind === 'late') {
      const timer = setTimeout(() => {
        this.lateNotices.delete(timer);
        this.broadcast(msg);
      }, delivery.ms);
      this.lateNotices.add(timer);
      return;
    }
    const times = delivery.kind === 'repeated' ? delivery.times : 1;
    for (let i = 0; i < times; i += 1) this.broadcast(msg);
  }

  private broadcast(msg: object): void {
    if (this.frozen) return;
    for (const c of this.connections) this.sendOn(c, LIFECYCLE, msg);
  }

  private sendOn(c: Connection, channel: string, msg: object): void {
    for (const sub of c.subscriptions.values()) {
      if (sub.channel !== channel) continue;
      sub.seq += 1;
      this.send(c, { type: DATA_TYPE[sub.channel], sid: sub.sid, seq: sub.seq, msg });
    }
  }

  /** Terminates every socket (no close frame: what a dropped connection looks like). */
  dropAll(): void {
    for (const c of this.connections) c.socket.terminate();
    this.connections.clear();
  }

  /** While frozen, sockets stay open but nothing is sent: no data, no pings, no pongs, no answers. */
  setFrozen(frozen: boolean): void {
    this.frozen = frozen;
  }

  close(): void {
    clearInterval(this.pinger);
    for (const timer of this.lateNotices) clearTimeout(timer);
    this.lateNotices.clear();
    this.dropAll();
  }

  private pingAll(): void {
    if (this.frozen) return;
    for (const c of this.connections) if (c.socket.readyState === c.socket.OPEN) c.socket.ping('heartbeat');
  }

  private send(c: Connection, frame: object): void {
    if (c.socket.readyState === c.socket.OPEN) c.socket.send(JSON.stringify(frame));
  }

  private error(c: Connection, id: unknown, code: number, msg: string): void {
    this.send(c, { type: 'error', ...(typeof id === 'number' ? { id } : {}), msg: { code, msg } });
  }

  private onCommand(c: Connection, text: string): void {
    let command: { id?: unknown; cmd?: unknown; params?: unknown };
    try {
      command = JSON.parse(text) as typeof command;
    } catch {
      return this.error(c, undefined, 1, 'Unable to process message');
    }
    if (typeof command !== 'object' || command === null) return this.error(c, undefined, 1, 'Unable to process message');
    const { id, cmd } = command;
    const params = command.params as { channels?: unknown; sids?: unknown } | undefined;
    if (cmd === 'subscribe') {
      if (typeof params !== 'object' || params === null) return this.error(c, id, 2, 'Params required');
      if (!Array.isArray(params.channels) || params.channels.length === 0) return this.error(c, id, 3, 'Channels required');
      const marketDataChannels = params.channels.filter((ch): ch is string => typeof ch === 'string' && MARKET_DATA_CHANNELS.has(ch));
      const refused = this.marketData.checkSubscribe(marketDataChannels, params as Record<string, unknown>);
      if (refused !== undefined) return this.error(c, id, refused.code, refused.msg);
      for (const channel of params.channels) {
        if (typeof channel !== 'string' || !CHANNELS.has(channel)) {
          this.error(c, id, 8, 'Unknown channel name');
          continue;
        }
        if (MARKET_DATA_CHANNELS.has(channel)) continue;
        if ([...c.subscriptions.values()].some((s) => s.channel === channel)) {
          this.error(c, id, 6, 'Already subscribed');
          continue;
        }
        const sid = c.nextSid++;
        c.subscriptions.set(sid, { sid, channel, seq: 0 });
        this.send(c, { type: 'subscribed', id, msg: { channel, sid } });
      }
      if (marketDataChannels.length > 0) this.marketData.subscribe(c, id, marketDataChannels, params as Record<string, unknown>);
      return;
    }
    if (cmd === 'update_subscription') {
      if (typeof params !== 'object' || params === null) return this.error(c, id, 2, 'Params required');
      return this.marketData.update(c, id, params as Record<string, unknown>);
    }
    if (cmd === 'list_subscriptions') {
      return this.send(c, { type: 'ok', id, msg: [...c.subscriptions.values()].map((s) => ({ channel: s.channel, sid: s.sid })) });
    }
    if (cmd === 'unsubscribe') {
      if (typeof params !== 'object' || params === null) return this.error(c, id, 2, 'Params required');
      if (!Array.isArray(params.sids) || params.sids.length === 0) return this.error(c, id, 4, 'Subscription IDs required');
      for (const sid of params.sids) {
        const sub = typeof sid === 'number' ? c.subscriptions.get(sid) : undefined;
        if (sub === undefined) {
          this.error(c, id, 7, 'Unknown subscription ID');
          continue;
        }
        c.subscriptions.delete(sub.sid);
        this.send(c, { type: 'unsubscribed', id, sid: sub.sid, seq: sub.seq });
      }
      return;
    }
    this.error(c, id, 5, 'Unknown command');
  }
}
