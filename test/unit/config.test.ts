import { ConfigError, loadConfig, simVenueToken } from '../../core/config';

const KEK = Buffer.alloc(32, 7).toString('base64');

function configErrorOf(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      HOST: '127.0.0.1',
      PORT: 3000,
      CORE_PORT: 4000,
      CORE_TIMEOUT_MS: 5000,
      DATABASE_POOL_SIZE: 20,
      PGLITE_DATA_DIR: '.data/pglite',
      CREDENTIALS_KEK_ID: 'kek1',
      RATE_LIMIT_DEFAULT: 50,
      SIGN_IN_ATTEMPTS_PER_MINUTE: 10,
      AUTH_FAILURES_PER_MINUTE: 30,
      TRUST_PROXY: false,
      AUTH_CACHE_TTL_MS: 1000,
      CATALOG_CACHE_MS: 1000,
      SCHEDULER_ENABLED: true,
      SCHEDULER_INTERVAL_MS: 250,
      SCHEDULER_STALE_MS: 30000,
      DEAD_MANS_SWITCH_SWEEP_MS: 250,
      EVENT_SEQUENCE_INTERVAL_MS: 50,
      EVENT_RETENTION_DAYS: 30,
      EVENT_STREAMS_PER_KEY: 10,
      EVENT_STREAMS_PER_WORKSPACE: 100,
      EVENT_CATCH_UP_PER_WORKSPACE: 2,
      EVENT_CATCH_UP_EVENTS_PER_SECOND: 20000,
      API_KEYS_PER_WORKSPACE: 50,
      ANALYST_INTROSPECTION: true,
      ANALYST_RATE_LIMIT: 10,
      ANALYST_CONCURRENCY_PER_CREDENTIAL: 2,
      ANALYST_MAX_ANSWER_BYTES: 8388608,
      EVENT_STREAM_HEARTBEAT_MS: 15000,
      EVENT_STREAM_MAX_AGE_MS: 3600000,
      EVENT_STREAM_POLL_MS: 2000,
      MARKET_STREAM_POLL_MS: 1000,
      WEBHOOK_ALLOW_PRIVATE_URLS: false,
      WEBHOOK_RETRY_BASE_MS: 10000,
      WEBHOOK_RETRY_MAX_DELAY_MS: 3600000,
      WEBHOOK_RETRY_WINDOW_MS: 259200000,
      WEBHOOK_TIMEOUT_MS: 10000,
      WEBHOOK_WORKER_INTERVAL_MS: 1000,
      DEAD_MANS_SWITCH_LEASE_MS: 10000,
      SIM_STARTING_BALANCE: '100000',
      KALSHI_PRODUCTION_URL: 'https://external-api.kalshi.com/trade-api/v2',
      KALSHI_DEMO_URL: 'https://external-api.demo.kalshi.co/trade-api/v2',
      KALSHI_PRODUCTION_WS_URL: 'wss://external-api-ws.kalshi.com/trade-api/ws/v2',
      KALSHI_DEMO_WS_URL: 'wss://external-api-ws.demo.kalshi.co/trade-api/ws/v2',
      KALSHI_TIMEOUT_MS: 5000,
      KALSHI_TIER: 'basic',
      KALSHI_USER_STREAM_ENABLED: true,
      POLYMARKET_CLOB_URL: 'https://clob.polymarket.com',
      POLYMARKET_CATALOG_SYNC_MS: 300_000,
      POLYMARKET_CHAIN_ID: 137,
      POLYMARKET_TIMEOUT_MS: 5000,
      POLYMARKET_DATA_API_URL: 'https://data-api.polymarket.com',
      POLYMARKET_USER_STREAM_ENABLED: true,
      POLYMARKET_MARKET_FEED_ENABLED: true,
      MARKET_FEED_QUIET_MS: 10000,
      KALSHI_CATALOG_SYNC_MS: 300000,
      LIVE_RECONCILER_ENABLED: true,
      SIM_RECONCILER_ENABLED: true,
      SIM_RECONCILE_INTERVAL_MS: 1000,
      LIVE_RECONCILE_INTERVAL_MS: 1000,
      LIVE_PENDING_STALE_MS: 15000,
      LIVE_RESEND_MAX_AGE_MS: 60000,
      LIVE_FILL_SWEEP_INTERVAL_MS: 2000,
      LIVE_FILL_SWEEP_WINDOW_MS: 600000,
      LIVE_ORDER_SWEEP_INTERVAL_MS: 10000,
      LIVE_SETTLEMENT_SWEEP_MS: 30000,
      KALSHI_CATALOG_ENVIRONMENT: 'production',
      SIM_VENUE_PORT: 4100,
      SIM_VENUE_TIMEOUT_MS: 2000,
      SIM_VENUE_POLL_MS: 250,
      READINESS_TIMEOUT_MS: 1000,
      LOG_LEVEL: 'info',
      MARKET_CLOSE_SWEEP_MS: 1000,
      ORDER_EXPIRY_SWEEP_MS: 1000,
      SEEDED_MARKET_RESOLVE_AFTER_MS: 3600000,
    });
    expect(config.SIM_VENUE_URL).toBeUndefined();
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.INTERNAL_TOKEN).toBeUndefined();
    expect(config.METRICS_TOKEN).toBeUndefined();
  });

  it('reads valid values, numbers as numbers', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      CORE_PORT: '0',
      CORE_URL: 'http://core.internal:4000',
      CORE_TIMEOUT_MS: '120000',
      DATABASE_URL: 'postgresql://u@db:5432/app',
      REDIS_URL: 'rediss://cache:6380',
      INTERNAL_TOKEN: 'x'.repeat(32),
      CREDENTIALS_KEK: KEK,
      RATE_LIMIT_DEFAULT: '7',
      AUTH_CACHE_TTL_MS: '0',
      SIM_STARTING_BALANCE: '2500.50',
      KALSHI_DEMO_URL: 'http://127.0.0.1:8787/trade-api/v2',
      KALSHI_DEMO_WS_URL: 'ws://127.0.0.1:8787/trade-api/ws/v2',
      METRICS_TOKEN: 'm'.repeat(32),
      READINESS_TIMEOUT_MS: '250',
      LOG_LEVEL: 'silent',
    });
    expect(config).toMatchObject({
      METRICS_TOKEN: 'm'.repeat(32), READINESS_TIMEOUT_MS: 250,
      HOST: '0.0.0.0', PORT: 8080, CORE_PORT: 0, CORE_URL: 'http://core.internal:4000', CORE_TIMEOUT_MS: 120000,
      DATABASE_URL: 'postgresql://u@db:5432/app', REDIS_URL: 'rediss://cache:6380', CREDENTIALS_KEK: KEK,
      RATE_LIMIT_DEFAULT: 7, AUTH_CACHE_TTL_MS: 0, SIM_STARTING_BALANCE: '2500.50', LOG_LEVEL: 'silent',
      KALSHI_DEMO_URL: 'http://127.0.0.1:8787/trade-api/v2', KALSHI_DEMO_WS_URL: 'ws://127.0.0.1:8787/trade-api/ws/v2',
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/app' }).DATABASE_URL).toBe('postgres://u@db/app');
  });

  it('is frozen', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('ignores variables it does not know', () => {
    expect(loadConfig({ PATH: '/usr/bin', HOME: '/root' })).not.toHaveProperty('PATH');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '65536'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['CORE_PORT', '99999'],
    ['CORE_URL', 'not a url'],
    ['CORE_URL', 'ftp://core:4000'],
    ['CORE_TIMEOUT_MS', '0'],
    ['CORE_TIMEOUT_MS', '120001'],
    ['DATABASE_URL', 'not-a-url'],
    ['DATABASE_URL', 'mysql://u@db/app'],
    ['REDIS_URL', 'http://cache:6379'],
    ['INTERNAL_TOKEN', 'too-short'],
    ['CREDENTIALS_KEK', Buffer.alloc(16).toString('base64')],
    ['RATE_LIMIT_DEFAULT', '0'],
    ['RATE_LIMIT_DEFAULT', '1000001'],
    ['AUTH_CACHE_TTL_MS', '-1'],
    ['AUTH_CACHE_TTL_MS', '60001'],
    ['SCHEDULER_ENABLED', 'yes'],
    ['CREDENTIALS_KEK_ID', 'kek 1'],
    ['CREDENTIALS_OLD_KEKS', 'no-colon-here'],
    ['SCHEDULER_INTERVAL_MS', '5'],
    ['SCHEDULER_STALE_MS', '999'],
    ['DEAD_MANS_SWITCH_SWEEP_MS', '1001'],
    ['DEAD_MANS_SWITCH_LEASE_MS', '999'],
    ['EVENT_SEQUENCE_INTERVAL_MS', '4'],
    ['EVENT_STREAM_HEARTBEAT_MS', '99'],
    ['EVENT_STREAMS_PER_KEY', '0'],
    ['EVENT_STREAMS_PER_WORKSPACE', '0'],
    ['EVENT_CATCH_UP_PER_WORKSPACE', '0'],
    ['EVENT_CATCH_UP_EVENTS_PER_SECOND', '100'],
    ['API_KEYS_PER_WORKSPACE', '0'],
    ['ANALYST_INTROSPECTION', 'true'],
    ['ANALYST_RATE_LIMIT', '0'],
    ['ANALYST_CONCURRENCY_PER_CREDENTIAL', '0'],
    ['ANALYST_MAX_ANSWER_BYTES', '1000'],
    ['EVENT_STREAM_MAX_AGE_MS', 'an hour'],
    ['SIM_STARTING_BALANCE', '-5'],
    ['SIM_STARTING_BALANCE', '1e6'],
    ['LOG_LEVEL', 'verbose'],
    ['KALSHI_PRODUCTION_URL', 'not a url'],
    ['KALSHI_DEMO_URL', 'wss://external-api.demo.kalshi.co/trade-api/v2'],
    ['KALSHI_PRODUCTION_WS_URL', 'https://external-api-ws.kalshi.com/trade-api/ws/v2'],
    ['KALSHI_DEMO_WS_URL', 'ftp://fake/trade-api/ws/v2'],
    ['KALSHI_TIMEOUT_MS', '50'],
    ['KALSHI_TIER', 'platinum'],
    ['KALSHI_CATALOG_SYNC_MS', '5000'],
    ['KALSHI_CATALOG_SYNC_MS', '-1'],
    ['KALSHI_CATALOG_ENVIRONMENT', 'staging'],
    ['METRICS_TOKEN', 'short-token'],
    ['READINESS_TIMEOUT_MS', '10'],
    ['READINESS_TIMEOUT_MS', '30001'],
    ['SIM_VENUE_URL', 'tcp://sim:4100'],
    ['SIM_VENUE_TOKEN', 'short-token'],
    ['SIM_VENUE_PORT', '65536'],
    ['SIM_VENUE_TIMEOUT_MS', '50'],
    ['SIM_VENUE_POLL_MS', '5'],
  ])('%s=%j is a ConfigError naming the variable', (name, value) => {
    const error = configErrorOf({ [name]: value });
    expect(error.message).toMatch(new RegExp(`^invalid configuration: ${name}\\b`));
    expect(error.message).not.toContain('\n');
  });

  // A blank-looking value must not silently turn into 0: PORT=0 binds a random port and
  // AUTH_CACHE_TTL_MS=0 turns the auth cache off, and nothing would tell the operator.
  it.each([['PORT'], ['CORE_PORT'], ['AUTH_CACHE_TTL_MS']])('%s of only whitespace is a ConfigError naming it, not 0', (name) => {
    expect(configErrorOf({ [name]: ' ' }).message).toMatch(new RegExp(`^invalid configuration: ${name}\\b`));
  });

  it('wants the simulated venues\' shared secret with SIM_VENUE_URL: SIM_VENUE_TOKEN, else INTERNAL_TOKEN', () => {
    const error = configErrorOf({ SIM_VENUE_URL: 'http://127.0.0.1:4100' });
    expect(error.message).toMatch(/^invalid configuration: SIM_VENUE_TOKEN is required with SIM_VENUE_URL/);
    const internal = 'i'.repeat(32);
    const dedicated = 's'.repeat(32);
    expect(simVenueToken(loadConfig({ SIM_VENUE_URL: 'http://127.0.0.1:4100', INTERNAL_TOKEN: internal }))).toBe(internal);
    expect(simVenueToken(loadConfig({ SIM_VENUE_URL: 'http://sim:4100', INTERNAL_TOKEN: internal, SIM_VENUE_TOKEN: dedicated }))).toBe(dedicated);
  });

  it('keeps events a day longer than a webhook delivery is retried (EVENT_RETENTION_DAYS), or for ever with 0', () => {
    expect(configErrorOf({ EVENT_RETENTION_DAYS: '2' }).message).toMatch(/^invalid configuration: EVENT_RETENTION_DAYS must be 0 \(keep events for ever\) or at least WEBHOOK_RETRY_WINDOW_MS plus one day/);
    expect(configErrorOf({ EVENT_RETENTION_DAYS: '3' }).message).toMatch(/^invalid configuration: EVENT_RETENTION_DAYS\b/); // the default window, 3 days, exactly: no margin
    expect(configErrorOf({ EVENT_RETENTION_DAYS: '8', WEBHOOK_RETRY_WINDOW_MS: String(8 * 86_400_000) }).message).toMatch(/^invalid configuration: EVENT_RETENTION_DAYS\b/);
    expect(loadConfig({ EVENT_RETENTION_DAYS: '4' }).EVENT_RETENTION_DAYS).toBe(4);
    expect(loadConfig({ EVENT_RETENTION_DAYS: '9', WEBHOOK_RETRY_WINDOW_MS: String(8 * 86_400_000) }).EVENT_RETENTION_DAYS).toBe(9);
    expect(loadConfig({ EVENT_RETENTION_DAYS: '0' }).EVENT_RETENTION_DAYS).toBe(0);
    expect(configErrorOf({ EVENT_RETENTION_DAYS: '-1' }).message).toMatch(/^invalid configuration: EVENT_RETENTION_DAYS must be a whole number/);
  });

  it('names the bad variable even beside good ones', () => {
    expect(configErrorOf({ PORT: '8080', LOG_LEVEL: 'loud', DATABASE_URL: 'postgres://db/app' }).message).toMatch(
      /^invalid configuration: LOG_LEVEL\b/,
    );
  });

  it('an empty string is the same as unset', () => {
    const config = loadConfig({ PORT: '', DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: '', INTERNAL_TOKEN: '', CREDENTIALS_KEK: '' });
    expect(config).toEqual(loadConfig({}));
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
  });
});
