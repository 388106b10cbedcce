import { liveAccountOptions } from '../liveAccounts';
import type { LiveVenueDeps, LiveVenueSetup } from '../venueModule';
import { PolymarketBooks } from './marketData';
import { polymarketAccounts, polymarketMarketChannelUrl, polymarketMarketTermsOf, type PolymarketSettings } from './polymarketAccounts';
import { PolymarketBookFeed } from './bookFeed';
import { fedMarketData } from '../fedMarketData';
import { PolymarketPublicReads } from './publicReads';
import { PolymarketSession } from './session';

/** What opening live Polymarket reads of the configuration (core/config.ts). */
export interface PolymarketLiveSettings extends PolymarketSettings {
  readonly POLYMARKET_USER_STREAM_ENABLED: boolean;
  readonly LIVE_FILL_SWEEP_WINDOW_MS: number;
  readonly POLYMARKET_MARKET_FEED_ENABLED: boolean;
  readonly POLYMARKET_MARKET_WS_URL?: string;
  readonly MARKET_FEED_QUIET_MS: number;
}

/**
 * Live Polymarket (CLOB V2): an account per subaccount credential (docs/polymarket.md); its fills
 * come by its user channel as they happen and by the REST sweeps (on every reconnect, and the live
 * reconciler's), a FAILED trade's fill is reversed, and an order whose answer was lost is found by
 * its hash. Public books for planning and marks through one unsigned session.
 */
export function openPolymarketLive(deps: LiveVenueDeps<PolymarketLiveSettings>): LiveVenueSetup {
  const { db, config, sinks } = deps;
  const dataApi = new PolymarketPublicReads({ baseUrl: config.POLYMARKET_DATA_API_URL, timeoutMs: config.POLYMARKET_TIMEOUT_MS, name: 'The Polymarket Data API' });
  const publicSession = new PolymarketSession({ baseUrl: config.POLYMARKET_CLOB_URL, timeoutMs: config.POLYMARKET_TIMEOUT_MS });
  const terms = polymarketMarketTermsOf(db);
  const books = new PolymarketBooks(publicSession, terms, dataApi);
  // The books of markets read here kept from the public market channel (docs/market-data.md "Live books").
  const feed = config.POLYMARKET_MARKET_FEED_ENABLED
    ? new PolymarketBookFeed({ wsUrl: polymarketMarketChannelUrl(config), markets: terms, session: publicSession, quietMs: config.MARKET_FEED_QUIET_MS })
    : undefined;
  feed?.onChange((conditionId) => sinks.marketMoved('polymarket', conditionId));
  const accounts = polymarketAccounts(db, {
    ...liveAccountOptions(deps, config.POLYMARKET_USER_STREAM_ENABLED),
    dataApi,
    sinks: {
      recordListing: (listed) => sinks.recordFillsAndFailures('polymarket', listed),
      recordState: sinks.recordState,
    },
  });
  return {
    venue: 'polymarket',
    accounts,
    marketData: feed ? fedMarketData(books, feed) : books,
    close: async () => void (await Promise.all([feed?.close(), books.close(), dataApi.close()])),
  };
}
