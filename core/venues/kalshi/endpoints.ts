import type { KalshiEnvironment } from '../../domain/credentialShapes';

/**
 * Where a Kalshi credential's requests go: its environment picks the REST and WebSocket base URLs
 * (Trade API v2). The URLs are configuration (core/config.ts, `KALSHI_*_URL`), defaulting to
 * Kalshi's documented hosts (docs/VENUES.md, Kalshi docs as of 2026-08):
 * production `https://external-api.kalshi.com/trade-api/v2`, `wss://external-api-ws.kalshi.com/trade-api/ws/v2`;
 * demo `https://external-api.demo.kalshi.co/trade-api/v2`, `wss://external-api-ws.demo.kalshi.co/trade-api/ws/v2`.
 * Tests point them at the fake (docs/kalshi-fake.md).
 */
export interface KalshiUrls {
  readonly KALSHI_PRODUCTION_URL: string;
  readonly KALSHI_DEMO_URL: string;
  readonly KALSHI_PRODUCTION_WS_URL: string;
  readonly KALSHI_DEMO_WS_URL: string;
}

export interface KalshiEndpoints {
  /** The REST base, ending in `/trade-api/v2` (no trailing slash). */
  readonly restUrl: string;
  readonly wsUrl: string;
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

export function kalshiEndpoints(urls: KalshiUrls, environment: KalshiEnvironment): KalshiEndpoints {
  return environment === 'production'
    ? { restUrl: withoutTrailingSlash(urls.KALSHI_PRODUCTION_URL), wsUrl: urls.KALSHI_PRODUCTION_WS_URL }
    : { restUrl: withoutTrailingSlash(urls.KALSHI_DEMO_URL), wsUrl: urls.KALSHI_DEMO_WS_URL };
}
