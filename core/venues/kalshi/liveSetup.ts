import { readFileSync } from 'node:fs';
import type { KalshiEnvironment } from '../../domain/credentialShapes';
import { fedMarketData } from '../fedMarketData';
import { KalshiBookFeed } from './bookFeed';
import { kalshiEndpoints } from './endpoints';
import { kalshiSignerFromCredential } from './signing';
import { liveAccountOptions } from '../liveAccounts';
import type { LiveVenueDeps, LiveVenueSetup } from '../venueModule';
import { kalshiAccounts } from './kalshiAccounts';
import { kalshiMarketDataFor, type KalshiMarketData } from './marketData';
import type { KalshiSessionSettings } from './session';

/** What opening live Kalshi reads of the configuration (core/config.ts). */
export interface KalshiLiveSettings extends KalshiSessionSettings {
  readonly KALSHI_CATALOG_ENVIRONMENT: KalshiEnvironment;
  readonly KALSHI_USER_STREAM_ENABLED: boolean;
  readonly LIVE_FILL_SWEEP_WINDOW_MS: number;
  readonly KALSHI_MARKET_DATA_KEY_ID?: string;
  readonly KALSHI_MARKET_DATA_PRIVATE_KEY_FILE?: string;
  readonly MARKET_FEED_QUIET_MS: number;
}

/**
 * The catalog environment's books kept from `orderbook_delta` over the operator's market-data key
 * (docs/market-data.md "Live books"); undefined without one (every book read goes to REST).
 */
function kalshiBookFeed(config: KalshiLiveSettings, rest: KalshiMarketData): KalshiBookFeed | undefined {
  if (!config.KALSHI_MARKET_DATA_KEY_ID || !config.KALSHI_MARKET_DATA_PRIVATE_KEY_FILE) return undefined;
  const signer = kalshiSignerFromCredential({ key_id: config.KALSHI_MARKET_DATA_KEY_ID, private_key: readFileSync(config.KALSHI_MARKET_DATA_PRIVATE_KEY_FILE, 'utf8') });
  return new KalshiBookFeed({ wsUrl: kalshiEndpoints(config, config.KALSHI_CATALOG_ENVIRONMENT).wsUrl, signer, rest, quietMs: config.MARKET_FEED_QUIET_MS });
}

/**
 * Live Kalshi (Trade API v2): an account per subaccount credential, its fills and the venue's own
 * order changes recorded by the core's services (the sinks); books for planning and marks from the
 * catalog's environment, and each account's from its own credential's environment.
 */
export function openKalshiLive(deps: LiveVenueDeps<KalshiLiveSettings>): LiveVenueSetup {
  const { db, config, sinks } = deps;
  const books = new Map<KalshiEnvironment, KalshiMarketData>();
  const booksOf = (environment: KalshiEnvironment) => {
    if (!books.has(environment)) books.set(environment, kalshiMarketDataFor(config, environment));
    return books.get(environment)!;
  };
  const accounts = kalshiAccounts(db, {
    ...liveAccountOptions(deps, config.KALSHI_USER_STREAM_ENABLED),
    books: booksOf,
    sinks: {
      recordFills: (fills) => sinks.recordFills('kalshi', fills),
      recordState: sinks.recordState,
      marketSettled: (ticker) => sinks.marketSettled('kalshi', ticker),
    },
  });
  const catalogBooks = booksOf(config.KALSHI_CATALOG_ENVIRONMENT);
  const feed = kalshiBookFeed(config, catalogBooks);
  feed?.onChange((ticker) => sinks.marketMoved('kalshi', ticker));
  return {
    venue: 'kalshi',
    accounts,
    marketData: feed ? fedMarketData(catalogBooks, feed) : catalogBooks,
    close: async () => void (await Promise.all([feed?.close(), ...[...books.values()].map((data) => data.close())])),
  };
}
