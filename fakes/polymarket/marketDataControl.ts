/**
 * The Polymarket fake's control routes for its public market data (marketChannel.ts,
 * marketFeed.ts), under `/_fake/` beside controlApi.ts's. Not Polymarket's API; JSON in and out.
 *
 *   GET  /_fake/market-channel                  {market_data, subscribed, feed_frozen, pending_losses:
 *                                               [{event_type, asset_id?, remaining}]}
 *   POST /_fake/market-channel/freeze {frozen}  the FEED freezes: sockets stay open and PING is still
 *                                               answered PONG, no data message goes out (lost) until
 *                                               {frozen: false}: {frozen}
 *   POST /_fake/market-channel/drop             every market-channel socket terminated (no close
 *                                               frame; the user channel is left alone): {dropped: n}
 *   POST /_fake/market-channel/lose {count?, event_type?, asset_id?}
 *                                               the next `count` (default 1) messages of `event_type`
 *                                               (default "price_change"; or book, last_trade_price,
 *                                               tick_size_change, best_bid_ask), for `asset_id` or
 *                                               any token, reach no subscriber: {pending_losses}
 *   DELETE /_fake/market-channel/lose           no more losses pending
 *   POST /_fake/tokens/{token_id}/tick-size {tick_size}
 *                                               the token's tick changes (`tick_size_change` on the
 *                                               channel): {asset_id, old_tick_size, new_tick_size}
 *
 * (`POST /_fake/ws/drop` and `/_fake/ws/freeze`, streamControl.ts, act on both channels at once.)
 */
import { z } from 'zod';
import type { ClobAnswer } from './errors';
import { isTickSize } from './markets';
import type { MarketChannel } from './marketChannel';
import { MARKET_EVENT_TYPES, type MarketEventType } from './marketFeed';

export interface MarketDataControls {
  readonly marketChannel: MarketChannel;
  readonly marketDataOn: boolean;
  freezeMarketFeed(frozen: boolean): void;
  dropMarketChannel(): number;
  loseMarketMessages(count: number, eventType?: MarketEventType, assetId?: string): void;
  changeTickSize(tokenId: string, tickSize: string): { ok: true; old: string } | { ok: false; status: number; error: string };
}

const answer = (status: number, body: unknown): ClobAnswer => ({ status, body });
const bad = (message: string): ClobAnswer => answer(400, { error: message });

const loseBody = z.object({
  count: z.number().int().min(1).max(10_000).default(1),
  event_type: z.enum(MARKET_EVENT_TYPES as [MarketEventType, ...MarketEventType[]]).default('price_change'),
  asset_id: z.string().regex(/^[0-9]{1,78}$/).optional(),
});

const pending = (fake: MarketDataControls) =>
  fake.marketChannel.pendingLosses.map((l) => ({ event_type: l.eventType, ...(l.assetId === undefined ? {} : { asset_id: l.assetId }), remaining: l.remaining }));

/** The answer to a market-data control route, or undefined when the route is not one of these. */
export function handleMarketDataControl(fake: MarketDataControls, method: string, path: string, body: Record<string, unknown>): ClobAnswer | undefined {
  if (method === 'GET' && path === '/_fake/market-channel') {
    return answer(200, { market_data: fake.marketDataOn, subscribed: fake.marketChannel.subscribedCount, feed_frozen: fake.marketChannel.isFeedFrozen, pending_losses: pending(fake) });
  }
  if (method === 'POST' && path === '/_fake/market-channel/freeze') {
    if (typeof body.frozen !== 'boolean') return bad('freeze needs frozen: true or false');
    fake.freezeMarketFeed(body.frozen);
    return answer(200, { frozen: body.frozen });
  }
  if (method === 'POST' && path === '/_fake/market-channel/drop') return answer(200, { dropped: fake.dropMarketChannel() });
  if (method === 'POST' && path === '/_fake/market-channel/lose') {
    const parsed = loseBody.safeParse(body);
    if (!parsed.success) return bad(`lose takes count (1..10000), event_type (${MARKET_EVENT_TYPES.join(', ')}) and asset_id (a token id)`);
    fake.loseMarketMessages(parsed.data.count, parsed.data.event_type, parsed.data.asset_id);
    return answer(200, { pending_losses: pending(fake) });
  }
  if (method === 'DELETE' && path === '/_fake/market-channel/lose') {
    fake.marketChannel.clearLosses();
    return answer(200, { pending_losses: [] });
  }
  const tick = /^\/_fake\/tokens\/([0-9]{1,78})\/tick-size$/.exec(path);
  if (method === 'POST' && tick) {
    if (!isTickSize(body.tick_size)) return bad('tick_size must be one of 0.1, 0.01, 0.005, 0.0025, 0.001, 0.0001');
    const changed = fake.changeTickSize(tick[1]!, body.tick_size);
    if (!changed.ok) return answer(changed.status, { error: changed.error });
    return answer(200, { asset_id: tick[1], old_tick_size: changed.old, new_tick_size: body.tick_size });
  }
  return undefined;
}
