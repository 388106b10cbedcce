import { z } from 'zod';
import { isStorableDecimalString } from '../contract/decimalStrings';

/**
 * Configuration is read from the environment once, validated, and frozen. A bad value stops the
 * process with one line naming the variable (see `bin/process.ts`).
 */
// Whole decimal numbers only: Number(' ') is 0 and Number('0x50') is 80, neither is what was meant.
const integer = z.string().regex(/^\d{1,9}$/, 'must be a whole number').transform(Number);
const port = integer.pipe(z.number().max(65535));

const schema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  CORE_PORT: port.default(4000),
  CORE_URL: z.url({ protocol: /^https?$/ }).optional(),
  CORE_TIMEOUT_MS: integer.pipe(z.number().positive().max(120_000)).default(5000),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /** Connections the core keeps to PostgreSQL (DATABASE_URL); the embedded PGlite always gets 1. */
  DATABASE_POOL_SIZE: integer.pipe(z.number().min(1).max(500)).default(20),
  PGLITE_DATA_DIR: z.string().min(1).default('.data/pglite'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  INTERNAL_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  CREDENTIALS_KEK: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
    .optional(),
  CREDENTIALS_KEK_ID: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 of A-Z a-z 0-9 . _ -').default('kek1'),
  /** Earlier key-encryption keys, still able to open what they sealed: `id:base64key,id:base64key` (docs/credentials.md). */
  CREDENTIALS_OLD_KEKS: z
    .string()
    .regex(
      /^\s*[A-Za-z0-9._-]{1,64}:[A-Za-z0-9+/_-]+={0,2}\s*(,\s*[A-Za-z0-9._-]{1,64}:[A-Za-z0-9+/_-]+={0,2}\s*)*$/,
      'must be comma-separated id:base64key entries',
    )
    .optional(),
  RATE_LIMIT_DEFAULT: integer.pipe(z.number().positive().max(1_000_000)).default(50),
  /** Dashboard sign-in attempts allowed per minute, per client address and per email. */
  SIGN_IN_ATTEMPTS_PER_MINUTE: integer.pipe(z.number().min(1).max(10_000)).default(10),
  /**
   * Failed authentications (401: a missing, malformed, unknown or revoked key or token, a session
   * that is not live) allowed per client address per minute; past it, that address's requests answer
   * 429 before any lookup until its minute ends.
   */
  AUTH_FAILURES_PER_MINUTE: integer.pipe(z.number().min(1).max(1_000_000)).default(30),
  /** The gateway is behind a proxy that terminates TLS: believe X-Forwarded-Proto/-For (Secure cookies, client address). */
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  AUTH_CACHE_TTL_MS: integer.pipe(z.number().max(60_000)).default(1000),
  /** How long the gateway keeps catalog answers (markets); 0 sends every request to the core. */
  CATALOG_CACHE_MS: integer.pipe(z.number().max(60_000)).default(1000),
  SCHEDULER_ENABLED: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  SCHEDULER_INTERVAL_MS: integer.pipe(z.number().min(10).max(60_000)).default(250),
  SCHEDULER_STALE_MS: integer.pipe(z.number().min(1000).max(3_600_000)).default(30_000),
  /**
   * The dead-man's switch's sweeper, in every core (docs/dead-mans-switch.md): how often it looks
   * for lapsed switches (a lapse is fired within this of its expiry), and how long a core holds a
   * firing's cancellation without renewing it before another core takes it up.
   */
  DEAD_MANS_SWITCH_SWEEP_MS: integer.pipe(z.number().min(10).max(1000)).default(250),
  DEAD_MANS_SWITCH_LEASE_MS: integer.pipe(z.number().min(1000).max(600_000)).default(10_000),
  /** How often each core numbers the new events of the event log (docs/events.md): the most a change waits before streams can see it. */
  EVENT_SEQUENCE_INTERVAL_MS: integer.pipe(z.number().min(5).max(5000)).default(50),
  /** GET /v1/events/stream (docs/events.md): a comment line this often; streams per credential; a look at the log without notice; a stream's longest life. */
  EVENT_STREAM_HEARTBEAT_MS: integer.pipe(z.number().min(100).max(300_000)).default(15_000),
  EVENT_STREAMS_PER_KEY: integer.pipe(z.number().min(1).max(10_000)).default(10),
  /**
   * Fairness between workspaces (docs/operations.md "Limits per workspace"): streams and analysts'
   * subscriptions a workspace may hold open at once, whatever its number of credentials (across
   * gateways sharing REDIS_URL, like EVENT_STREAMS_PER_KEY); catch-up reads of the log (a stream
   * resuming with Last-Event-ID) one workspace may have in flight at once on a gateway (its other
   * streams wait their turn, so a reconnect storm is paced within its own workspace), and the pace
   * at which they are fed, all of them together (events per second per workspace and gateway); and active
   * (unrevoked) API keys a workspace may hold, both environments together.
   */
  EVENT_STREAMS_PER_WORKSPACE: integer.pipe(z.number().min(1).max(100_000)).default(100),
  EVENT_CATCH_UP_PER_WORKSPACE: integer.pipe(z.number().min(1).max(1000)).default(2),
  EVENT_CATCH_UP_EVENTS_PER_SECOND: integer.pipe(z.number().min(200).max(10_000_000)).default(20_000),
  API_KEYS_PER_WORKSPACE: integer.pipe(z.number().min(1).max(100_000)).default(50),
  /**
   * The analysts' GraphQL (docs/analyst-graphql.md "Limits"): whether introspection is served
   * (`off` in production if analysts do not need GraphiQL's documentation and completion), how many
   * documents one credential may send a second and have running at once on a gateway, and the
   * largest answer a gateway passes on (larger ones answer 400 invalid_request).
   */
  ANALYST_INTROSPECTION: z.enum(['on', 'off']).default('on').transform((v) => v === 'on'),
  /** Documents per second one credential may send to the analysts' GraphQL (counted before its lookup; REST routes keep RATE_LIMIT_DEFAULT). */
  ANALYST_RATE_LIMIT: integer.pipe(z.number().min(1).max(1_000_000)).default(10),
  ANALYST_CONCURRENCY_PER_CREDENTIAL: integer.pipe(z.number().min(1).max(1000)).default(2),
  ANALYST_MAX_ANSWER_BYTES: integer.pipe(z.number().min(65_536).max(1_073_741_824)).default(8_388_608),
  EVENT_STREAM_POLL_MS: integer.pipe(z.number().min(100).max(60_000)).default(2000),
  EVENT_STREAM_MAX_AGE_MS: integer.pipe(z.number().min(1000).max(86_400_000)).default(3_600_000),
  /** How often a gateway's market-data stream reads its market without a notice (the venue moved on its own, a notice was lost). */
  MARKET_STREAM_POLL_MS: integer.pipe(z.number().min(50).max(60_000)).default(1000),
  /**
   * How long numbered events are kept (docs/events.md "Retention"): each core's sweeper deletes older
   * ones (each workspace's newest excepted); 0 keeps them for ever. Checked below against
   * WEBHOOK_RETRY_WINDOW_MS: a delivery still being retried needs its event.
   */
  EVENT_RETENTION_DAYS: integer.pipe(z.number().max(36_500)).default(30),
  /**
   * Webhooks (docs/webhooks.md): how often each core looks for deliveries due; the first retry's
   * delay (doubling per attempt, with jitter, up to WEBHOOK_RETRY_MAX_DELAY_MS); how long after its
   * event a delivery is retried before it is given up (3 days); every call's limit, connecting and
   * answering; and whether endpoints may resolve to loopback, private, link-local or other special-purpose addresses
   * (false in production: the core sits on a private network).
   */
  WEBHOOK_WORKER_INTERVAL_MS: integer.pipe(z.number().min(10).max(60_000)).default(1000),
  WEBHOOK_RETRY_BASE_MS: integer.pipe(z.number().min(10).max(3_600_000)).default(10_000),
  WEBHOOK_RETRY_MAX_DELAY_MS: integer.pipe(z.number().min(10).max(86_400_000)).default(3_600_000),
  WEBHOOK_RETRY_WINDOW_MS: integer.pipe(z.number().min(100).max(30 * 86_400_000)).default(3 * 86_400_000),
  WEBHOOK_TIMEOUT_MS: integer.pipe(z.number().min(100).max(60_000)).default(10_000),
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  SIM_STARTING_BALANCE: z
    .string()
    // Below a trillion, as a subaccount's own starting_balance (services/accounts/subaccounts.ts MAX_STARTING_BALANCE).
    .refine((value) => isStorableDecimalString(value) && !value.startsWith('-') && Number(value) < 1e12, 'must be a non-negative decimal below 1000000000000')
    .default('100000'),
  /**
   * Kalshi Trade API v2 base URLs per credential environment (docs.kalshi.com, 2026-08; docs/VENUES.md).
   * A credential's environment picks the pair; tests point them at the fake (docs/kalshi-fake.md).
   */
  KALSHI_PRODUCTION_URL: z.url({ protocol: /^https?$/ }).default('https://external-api.kalshi.com/trade-api/v2'),
  KALSHI_DEMO_URL: z.url({ protocol: /^https?$/ }).default('https://external-api.demo.kalshi.co/trade-api/v2'),
  KALSHI_PRODUCTION_WS_URL: z.url({ protocol: /^wss?$/ }).default('wss://external-api-ws.kalshi.com/trade-api/ws/v2'),
  KALSHI_DEMO_WS_URL: z.url({ protocol: /^wss?$/ }).default('wss://external-api-ws.demo.kalshi.co/trade-api/ws/v2'),
  /** Every Kalshi call's limit, connecting and whole request; also the longest a call waits for rate-limit tokens. */
  KALSHI_TIMEOUT_MS: integer.pipe(z.number().min(100).max(60_000)).default(5000),
  /** The Kalshi rate-limit tier of our API keys (tokens/s read/write: basic 200/100, advanced 300/300, expert 600/600, premier 1000/1000). */
  KALSHI_TIER: z.enum(['basic', 'advanced', 'expert', 'premier']).default('basic'),
  /** Each live Kalshi account's private stream (`fill`, `user_orders`); `false` leaves fills and order ends to the REST sweeps alone. */
  KALSHI_USER_STREAM_ENABLED: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /**
   * An operator's Kalshi key for public market data (docs/market-data.md "Live books"): Kalshi's
   * order book channel needs a signed connection. With both set, books of the catalog's environment
   * (KALSHI_CATALOG_ENVIRONMENT) are kept from `orderbook_delta`; without, every book read goes to
   * `GET /markets/{ticker}/orderbook`. The key's PEM file is read at start-up; never logged.
   */
  KALSHI_MARKET_DATA_KEY_ID: z.string().min(1).max(200).optional(),
  KALSHI_MARKET_DATA_PRIVATE_KEY_FILE: z.string().min(1).max(4096).optional(),
  /**
   * Polymarket CLOB V2 (docs/polymarket.md): the REST base, the chain orders are signed for
   * (137 Polygon, the only live venue; 80002 Amoy for tests against a fake), and every call's limit.
   * One venue, one URL: Polymarket has no separate demo exchange.
   */
  POLYMARKET_CLOB_URL: z.url({ protocol: /^https?$/ }).default('https://clob.polymarket.com'),
  POLYMARKET_CHAIN_ID: z.enum(['137', '80002']).default('137').transform((v) => Number(v) as 137 | 80002),
  POLYMARKET_TIMEOUT_MS: integer.pipe(z.number().min(100).max(60_000)).default(5000),
  /** Polymarket's public Data API: each wallet's redeemable positions and redemptions (docs/settlement.md "Live venues"). */
  POLYMARKET_DATA_API_URL: z.url({ protocol: /^https?$/ }).default('https://data-api.polymarket.com'),
  /**
   * Each live Polymarket account's user channel (docs/polymarket.md "Fills"): its URL (unset: the
   * production channel for the production REST host, else the REST host's `/ws/user` as on the
   * fake) and whether it runs (`false` leaves fills to the reconciler's sweep alone).
   */
  POLYMARKET_WS_URL: z.url({ protocol: /^wss?$/ }).optional(),
  POLYMARKET_USER_STREAM_ENABLED: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /**
   * Live Polymarket books kept from the public market channel (docs/market-data.md "Live books"):
   * whether it runs (`false`: every book read goes to `GET /book`) and its URL (unset: the
   * production channel for the production REST host, else the REST host's `/ws/market`).
   */
  POLYMARKET_MARKET_FEED_ENABLED: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  POLYMARKET_MARKET_WS_URL: z.url({ protocol: /^wss?$/ }).optional(),
  /** A live book kept from a venue's feed that has heard nothing for this long is checked against the venue's REST book (docs/market-data.md "Live books"). */
  MARKET_FEED_QUIET_MS: integer.pipe(z.number().min(100).max(600_000)).default(10_000),
  /**
   * The live reconciler (docs/reconciliation.md): how often it resolves orders left `unknown` (a lost
   * answer) or `pending` past LIVE_PENDING_STALE_MS (a core that stopped mid-send), and how often it
   * sweeps each live account's fills over the last LIVE_FILL_SWEEP_WINDOW_MS (the truth behind the
   * venue's stream). An order the venue does not know is sent again with the same client order id
   * while it is younger than LIVE_RESEND_MAX_AGE_MS; older, it is recorded as rejected. Every
   * LIVE_ORDER_SWEEP_INTERVAL_MS it reads each live account's open orders (Polymarket, Kalshi) and records the end
   * of our working orders the venue ended on its own (a heartbeat lapse, a resolved market).
   */
  LIVE_RECONCILER_ENABLED: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /**
   * The simulated venues' reconciler (docs/reconciliation.md): how often it resolves test orders left
   * `pending` or `unknown` longer than twice CORE_TIMEOUT_MS (a core that stopped mid-request), by
   * the rules of live orders (sent again while younger than LIVE_RESEND_MAX_AGE_MS).
   */
  SIM_RECONCILER_ENABLED: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  SIM_RECONCILE_INTERVAL_MS: integer.pipe(z.number().min(10).max(600_000)).default(1000),
  /**
   * How often the test environment's markets whose close time has come are closed (a test helper's
   * at its closes_at, a seeded one at its seeded close time), and seeded ones due are resolved
   * (docs/settlement.md); 0 turns it off.
   */
  MARKET_CLOSE_SWEEP_MS: integer.pipe(z.number().min(0).max(600_000)).default(1000),
  /** How often this core records the gtd orders whose expires_at has passed as expired, once their venue ended them (docs/trading.md); 0 turns it off. */
  ORDER_EXPIRY_SWEEP_MS: integer.pipe(z.number().min(0).max(600_000)).default(1000),
  /** How long after its close a seeded simulated market resolves by the seeded rule (docs/simulated-venues.md). */
  SEEDED_MARKET_RESOLVE_AFTER_MS: integer.pipe(z.number().min(0).max(30 * 86_400_000)).default(3_600_000),
  LIVE_RECONCILE_INTERVAL_MS: integer.pipe(z.number().min(10).max(600_000)).default(1000),
  LIVE_PENDING_STALE_MS: integer.pipe(z.number().min(1000).max(3_600_000)).default(15_000),
  LIVE_RESEND_MAX_AGE_MS: integer.pipe(z.number().min(0).max(3_600_000)).default(60_000),
  LIVE_FILL_SWEEP_INTERVAL_MS: integer.pipe(z.number().min(10).max(600_000)).default(2000),
  LIVE_ORDER_SWEEP_INTERVAL_MS: integer.pipe(z.number().min(10).max(600_000)).default(10_000),
  LIVE_FILL_SWEEP_WINDOW_MS: integer.pipe(z.number().min(1000).max(86_400_000)).default(600_000),
  /**
   * How often each core asks the live venues for their settlements of the markets our subaccounts
   * hold (docs/settlement.md "Live venues"); a venue's notice that a market closed or settled asks at
   * once. Runs with the live reconciler.
   */
  LIVE_SETTLEMENT_SWEEP_MS: integer.pipe(z.number().min(10).max(3_600_000)).default(30_000),
  /**
   * How often the core syncs the live Kalshi catalog (open markets into the `live` environment;
   * docs/kalshi.md "Live catalog"), also once at start-up; 0 turns it off (the tests do).
   */
  KALSHI_CATALOG_SYNC_MS: integer
    .pipe(z.number().max(86_400_000))
    .refine((ms) => ms === 0 || ms >= 10_000, 'must be 0 (off) or at least 10000')
    .default(300_000),
  /** Which Kalshi environment's markets the catalog sync lists: production (default) or demo. */
  KALSHI_CATALOG_ENVIRONMENT: z.enum(['production', 'demo']).default('production'),
  /**
   * Polymarket's public APIs (docs/polymarket.md "Live catalog"): Gamma's markets, synced into the
   * live catalog at start-up and every POLYMARKET_CATALOG_SYNC_MS (unset URL or 0: off, as in the
   * tests unless a suite points it at the Gamma fake). Its calls use POLYMARKET_TIMEOUT_MS.
   */
  POLYMARKET_GAMMA_URL: z.url({ protocol: /^https?$/ }).optional(),
  POLYMARKET_CATALOG_SYNC_MS: integer
    .pipe(z.number().max(86_400_000))
    .refine((ms) => ms === 0 || ms >= 10_000, 'must be 0 (off) or at least 10000')
    .default(300_000),
  /**
   * The simulated venues as a service (docs/simulated-venues.md "As a service"): where a core finds
   * them (unset: in the core's own memory, as `npm start`), the shared secret of its calls
   * (SIM_VENUE_TOKEN, else INTERNAL_TOKEN), each call's limit, and how often a core reads the fills
   * of its resting orders. SIM_VENUE_PORT: where `npm run start:sim-venue` listens.
   */
  SIM_VENUE_URL: z.url({ protocol: /^https?$/ }).optional(),
  SIM_VENUE_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  SIM_VENUE_PORT: port.default(4100),
  SIM_VENUE_TIMEOUT_MS: integer.pipe(z.number().min(100).max(60_000)).default(2000),
  SIM_VENUE_POLL_MS: integer.pipe(z.number().min(10).max(60_000)).default(250),
  /** When set, GET /metrics (gateway and core) needs `Authorization: Bearer <METRICS_TOKEN>`; unset, it is open (docs/operations.md). */
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The longest each readiness check (GET /readyz) waits for its dependency; the gateway waits twice that for the core's. */
  READINESS_TIMEOUT_MS: integer.pipe(z.number().min(50).max(30_000)).default(1000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
}).refine((config) => config.EVENT_RETENTION_DAYS === 0 || eventRetentionMs(config) >= config.WEBHOOK_RETRY_WINDOW_MS + RETENTION_MARGIN_MS, {
  path: ['EVENT_RETENTION_DAYS'],
  message: 'must be 0 (keep events for ever) or at least WEBHOOK_RETRY_WINDOW_MS plus one day, so that no webhook delivery still being retried (late, behind a backlog) loses its event',
}).refine((config) => (config.KALSHI_MARKET_DATA_KEY_ID === undefined) === (config.KALSHI_MARKET_DATA_PRIVATE_KEY_FILE === undefined), {
  path: ['KALSHI_MARKET_DATA_KEY_ID'],
  message: 'and KALSHI_MARKET_DATA_PRIVATE_KEY_FILE go together: set both (the operator\'s market-data key) or neither',
}).refine((config) => config.SIM_VENUE_URL === undefined || (config.SIM_VENUE_TOKEN ?? config.INTERNAL_TOKEN) !== undefined, {
  // A process-random INTERNAL_TOKEN (npm start without one) could never match the service's.
  path: ['SIM_VENUE_TOKEN'],
  message: 'is required with SIM_VENUE_URL (or INTERNAL_TOKEN, the same as the service\'s)',
});

export type Config = Readonly<z.infer<typeof schema>>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in most shells' `FOO= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  return Object.freeze(parsed.data);
}

/** The shared secret of the simulated venues' service: SIM_VENUE_TOKEN, else INTERNAL_TOKEN. */
export function simVenueToken(config: Pick<Config, 'SIM_VENUE_TOKEN' | 'INTERNAL_TOKEN'>): string | undefined {
  return config.SIM_VENUE_TOKEN ?? config.INTERNAL_TOKEN;
}

/**
 * How much longer than WEBHOOK_RETRY_WINDOW_MS events are kept at the least: a delivery's window
 * starts when its event is numbered, and an attempt due at its end may be claimed late (an endpoint's
 * backlog): a day covers both.
 */
const RETENTION_MARGIN_MS = 86_400_000;

/** How long events are kept (EVENT_RETENTION_DAYS), in milliseconds; 0 for ever. */
export function eventRetentionMs(config: { EVENT_RETENTION_DAYS: number }): number {
  return config.EVENT_RETENTION_DAYS * 86_400_000;
}
