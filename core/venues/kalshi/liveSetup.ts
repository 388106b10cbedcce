import type { KalshiEnvironment } from '../../domain/credentialShapes';
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
  return {
    venue: 'kalshi',
    accounts,
    marketData: booksOf(config.KALSHI_CATALOG_ENVIRONMENT),
    close: async () => void (await Promise.all([...books.values()].map((data) => data.close()))),
  };
}
