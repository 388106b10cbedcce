/**
 * The venues' events through the public API (issue 29): markets grouped as the venues group them,
 * searchable, each with its markets and their quotes; not the workspace's event log.
 */
import { testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { createApiKey } from '../../core/services/accounts/apiKeys';
import { expectError, newTrader, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;

beforeAll(async () => {
  stack = await startStack(testConfig({ CATALOG_CACHE_MS: '0' }));
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Market events');
});
afterAll(async () => {
  await stack?.close();
});

type Json = Record<string, any>;
const get = (path: string, key = trader.secret) => call<Json>(trader.base, 'GET', path, { key });

it('lists the simulated venues’ events by venue and category, each with its markets and their quotes; markets name their event', async () => {
  const page = ok(await get('/v1/market_events?venue=sim-kalshi&category=economics'), 'events');
  expect(page.data).toEqual([
    expect.objectContaining({ venue: 'sim-kalshi', venue_event_id: 'SIM-ECONOMICS', series_key: null, title: 'US economy: the next decisions and releases', category: 'economics' }),
  ]);
  const event = ok(await get(`/v1/market_events/${page.data[0].id}`), 'event');
  expect(event.markets.map((m: Json) => m.venue_market_id).sort()).toEqual(['CPI-ABOVE-3', 'FED-CUT-DEC', 'GDP-Q-NEG', 'UNEMP-ABOVE-45']);
  for (const market of event.markets) {
    expect(market).toMatchObject({ venue: 'sim-kalshi', category: 'economics', event_id: event.id, stale: false });
    expect(Number(market.yes_ask)).toBeGreaterThan(Number(market.yes_bid));
  }
  const fed = event.markets.find((m: Json) => m.venue_market_id === 'FED-CUT-DEC');
  expect(ok(await get(`/v1/markets/${fed.id}`), 'market').event_id).toBe(event.id);
  // The other venue groups the same questions under its own event.
  const polymarket = ok(await get('/v1/market_events?venue=sim-polymarket&category=economics'), 'polymarket events');
  expect(polymarket.data.map((e: Json) => e.venue_event_id)).toEqual(['sim-economics']);
});

it('searches by words of the title, event id and category, pages by cursor, and refuses what it cannot read', async () => {
  const found = ok(await get('/v1/market_events?q=weather%20rec'), 'search');
  expect(found.data.map((e: Json) => e.venue_event_id).sort()).toEqual(['SIM-WEATHER', 'sim-weather']);
  expect(ok(await get('/v1/market_events?q=zyzzyva'), 'nothing').data).toEqual([]);
  const first = ok(await get('/v1/market_events?limit=3'), 'first page');
  expect(first.has_more).toBe(true);
  const second = ok(await get(`/v1/market_events?limit=3&cursor=${first.next_cursor}`), 'second page');
  expect(second.data.map((e: Json) => e.id).every((id: string) => id > first.data[2].id)).toBe(true);
  expectError(await get('/v1/market_events?venue=nasdaq'), 400, 'invalid_request');
  expectError(await get('/v1/market_events?limit=0'), 400, 'invalid_request');
  expectError(await get('/v1/market_events/mev_unknown'), 404, 'not_found');
});

it('a live key sees no test events: another environment’s event is not found', async () => {
  const page = ok(await get('/v1/market_events?venue=sim-kalshi&limit=1'), 'test events');
  const { secret: liveKey } = await createApiKey(stack.core.db, { workspaceId: trader.workspaceId, environment: 'live', name: 'live reader' });
  expectError(await get(`/v1/market_events/${page.data[0].id}`, liveKey), 404, 'not_found');
  expect(ok(await get('/v1/market_events', liveKey), 'live events').data.filter((e: Json) => e.venue.startsWith('sim-'))).toEqual([]);
});
