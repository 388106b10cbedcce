import { eventRetentionMs, simVenueToken, type Config } from './config';
import { applyMigrations } from './db/migrate';
import { credentialKeysFor, EMBEDDED_KEK_ID } from './db/embeddedKek';
import { openDatabase } from './db/openDatabase';
import { createPrismaClient, type Db } from './db/prismaClient';
import type http from 'node:http';
import { ANALYST_GRAPHQL_PATH, CORE_REQUEST_ID_HEADER } from '../contract/endpoints';
import { createAnalystYoga } from './graphql/analystYoga';
import { requireSignedPrincipal } from './graphql/signedPrincipal';
import { createCoreYoga } from './graphql/yoga';
import { createRevocationBus, type RevocationBus } from '../contract/revocationBus';
import { createEventNotices, MARKET_NOTICE_TOPIC, type EventNotices } from '../contract/eventNotices';
import { startEventSequencer } from './services/events/eventSequencer';
import { startEventRetention } from './services/events/eventRetention';
import { startWebhookWorker } from './services/events/webhookDeliveries';
import { eventRenderer } from './graphql/eventRendering';
import { marketNotices } from './services/marketData/marketNotices';
import { recordKnownVenues } from './services/catalog/knownVenues';
import { seedSimulatedMarkets } from './services/catalog/simulatedCatalog';
import { startComplexOrderScheduler } from './services/complexOrders/scheduler';
import { DeadMansSwitchKeepAlive } from './services/risk/deadMansSwitch';
import { startDeadMansSwitchSweeper } from './services/reconciliation/deadMansSwitchSweeper';
import type { Logger } from './support/logger';
import { inFlightWindowMs, KeyRecords } from './services/idempotency/keyRecords';
import type { VenueRegistry } from './venues/venue';
import { openVenues } from './venues/registry';
import type { LiveVenueSinks } from './venues/venueModule';
import { recordExecution } from './services/orders/executions';
import { recordFillsAndFailures, recordNewFills, startLiveReconciler } from './services/reconciliation/liveReconciler';
import { startSimulatedReconciler } from './services/reconciliation/simulatedReconciler';
import { startExpirySweep } from './services/orders/expirySweep';
import { startScheduledClosings } from './services/settlement/scheduledClosings';
import { startVenueSettlementSweep } from './services/settlement/venueSettlements';
import { runPeriodically } from './support/periodic';
import { inRequestNamed } from './support/requestContext';
import { startCatalogSyncs } from './services/catalog/catalogSync';
import { VENUE_MODULES } from './venues/venueModules';
import { CoreMetrics } from './ops/coreMetrics';
import { coreOps } from './ops/coreOps';
import type { Registry } from 'prom-client';

export interface CoreService {
  /**
   * Both on one HTTP listener (`npm run start:core`): the operator's endpoints (/healthz, /readyz,
   * /metrics; core/ops/coreOps.ts), then nothing without a valid signed principal, then
   * /analyst/… to the analysts' endpoint and everything else to the persisted operations'.
   */
  handler: http.RequestListener;
  /** The same for a gateway in the same process (`npm start`), without a socket. */
  fetch(url: string, init: RequestInit): Promise<Response> | Response;
  /** The core's metrics, which a gateway in the same process serves with its own at /metrics. */
  metrics: Registry;
  db: Db;
  databaseUrl: string;
  revocations: RevocationBus;
  /** The event log's notices (a gateway in the same process hears them without Redis). */
  events: EventNotices;
  venues: VenueRegistry;
  close(): Promise<void>;
}

/** The core, ready to serve: database opened and migrated, simulated catalog seeded, GraphQL built. */
export async function openCore(
  config: Config,
  internalSecret: string,
  logger: Logger,
  options: { inProcessOnly?: boolean } = {},
): Promise<CoreService> {
  // Before anything is opened: a bad keyring stops the start with a message naming the variable.
  const credentialKeys = credentialKeysFor(config);
  if (credentialKeys.current?.id === EMBEDDED_KEK_ID) {
    logger.info(
      { file: credentialKeys.embeddedKekFile ?? 'in memory' },
      'venue credentials and webhook secrets are sealed with the embedded database\'s own key (an owner-only file beside the data); a deployment sets CREDENTIALS_KEK (docs/credentials.md)',
    );
  }
  const database = await openDatabase(config);
  const applied = await applyMigrations(database.url);
  if (applied.length) logger.info({ migrations: applied }, 'applied migrations');
  // One connection to PGlite: its socket server runs every connection on one session and interleaves
  // their protocol messages outside transactions, so two connections' statements could mix.
  const db = createPrismaClient(database.url, database.embedded ? 1 : config.DATABASE_POOL_SIZE, { embedded: database.embedded, connectTimeoutMs: config.CORE_TIMEOUT_MS });
  const registered = await recordKnownVenues(db);
  if (registered) logger.info({ venues: registered }, 'registered venues new to the database');
  const seeded = await seedSimulatedMarkets(db);
  if (seeded) logger.info({ markets: seeded }, 'seeded simulated markets');
  const revocations = createRevocationBus(config.REDIS_URL);
  const events = createEventNotices(config.REDIS_URL);
  const metrics = new CoreMetrics({
    db, logger, pendingStaleMs: config.LIVE_PENDING_STALE_MS, queryTimeoutMs: config.READINESS_TIMEOUT_MS, simulatedVenuesRemote: config.SIM_VENUE_URL !== undefined,
  });
  // The live settlement sweep starts once the venues are open; their notices nudge it from then on.
  let settlementSweep: { marketSettled(venue: string, venueMarketId: string): void } | null = null;
  const sinks = liveSinks(db, logger, {
    marketSettled: (venue, venueMarketId) => settlementSweep?.marketSettled(venue, venueMarketId),
    marketMoved: marketNotices(db, (marketId) => events.pubSub.publish(MARKET_NOTICE_TOPIC, { marketId })),
  });
  const venues = await openVenues(db, logger, (orderId, fills) => recordExecution(db, orderId, { fills }), {
    live: VENUE_MODULES.flatMap((module) => (module.openLive ? [module.openLive({ db, config, keyring: credentialKeys.keyring, logger, observer: metrics, sinks })] : [])),
    observer: metrics,
    // Several cores on one database trade on one set of books: the simulated venues' service (docs/simulated-venues.md).
    ...(config.SIM_VENUE_URL
      ? {
          simVenueService: {
            url: config.SIM_VENUE_URL,
            token: simVenueToken(config)!,
            timeoutMs: config.SIM_VENUE_TIMEOUT_MS,
            pollIntervalMs: config.SIM_VENUE_POLL_MS,
            recordFills: (venue, fills) => recordNewFills(db, venue, fills, logger),
          },
        }
      : {}),
  });
  // Our orders' activity on a market, told to the gateways' market-data streams (MARKET_NOTICE_TOPIC).
  venues.marketActivity = (marketId) => events.pubSub.publish(MARKET_NOTICE_TOPIC, { marketId });
  const keepAlive = new DeadMansSwitchKeepAlive(db, logger);
  const inFlightMs = inFlightWindowMs(config.CORE_TIMEOUT_MS);
  const keyRecords = new KeyRecords(db, inFlightMs);
  const yoga = createCoreYoga({ db, config, internalSecret, revocations, venues, logger, credentialKeys, keepAlive, keyRecords, inProcessOnly: options.inProcessOnly });
  const analyst = createAnalystYoga({ db, config, internalSecret, revocations, venues, logger, credentialKeys, eventNotices: events });
  const isAnalyst = (path: string | undefined) => path?.startsWith(ANALYST_GRAPHQL_PATH) === true;
  const ops = coreOps({
    db, revocations, venues, metrics, logger,
    redis: config.REDIS_URL !== undefined,
    metricsToken: config.METRICS_TOKEN,
    readinessTimeoutMs: config.READINESS_TIMEOUT_MS,
  });
  // Served in the context of the gateway's request (its id on every line logged meanwhile).
  const handler = ops.listener(
    requireSignedPrincipal(internalSecret, (req, res) => void inRequestNamed(req.headers[CORE_REQUEST_ID_HEADER], () => (isAnalyst(req.url) ? analyst(req, res) : yoga(req, res)))),
  );
  const fetch = (url: string, init: RequestInit) => {
    const { pathname } = new URL(url);
    const answer = ops.answer(init.method ?? 'GET', pathname, new Headers(init.headers).get('authorization') ?? undefined);
    if (answer) return answer.then(({ status, headers, body }) => new Response(init.method === 'HEAD' ? null : body, { status, headers }));
    return (isAnalyst(pathname) ? analyst : yoga).fetch(url, init);
  };
  const expireKeys = () => keyRecords.deleteExpired().catch((error: unknown) => logger.warn({ err: error }, 'idempotency key expiry failed'));
  await expireKeys();
  const expiry = setInterval(expireKeys, 3_600_000).unref();
  const reconciler = config.LIVE_RECONCILER_ENABLED && venues.live.size > 0
    ? startLiveReconciler(db, venues.live, logger, {
        reconcileIntervalMs: config.LIVE_RECONCILE_INTERVAL_MS,
        sweepIntervalMs: config.LIVE_FILL_SWEEP_INTERVAL_MS,
        orderSweepIntervalMs: config.LIVE_ORDER_SWEEP_INTERVAL_MS,
        pendingStaleMs: config.LIVE_PENDING_STALE_MS,
        resendMaxAgeMs: config.LIVE_RESEND_MAX_AGE_MS,
        sweepWindowMs: config.LIVE_FILL_SWEEP_WINDOW_MS,
      })
    : null;
  // Live markets settle in our books at the venues' own settlement records (docs/settlement.md "Live venues").
  const venueSettlements = config.LIVE_RECONCILER_ENABLED && venues.live.size > 0
    ? startVenueSettlementSweep(db, venues, logger, { intervalMs: config.LIVE_SETTLEMENT_SWEEP_MS })
    : null;
  settlementSweep = venueSettlements;
  // Crash recovery without a client's retry: the claims of requests that died are released, and
  // test orders they left pending are resolved (docs/reconciliation.md).
  const deadClaims = runPeriodically(
    Math.max(1000, inFlightMs / 2),
    async () => {
      const released = await keyRecords.releaseDeadClaims();
      if (released > 0) logger.info({ released }, 'released the Idempotency-Key claims of requests that died');
    },
    (error) => logger.warn({ err: error }, 'releasing dead Idempotency-Key claims failed; retrying on the next round'),
  );
  const simulatedReconciler = config.SIM_RECONCILER_ENABLED
    ? startSimulatedReconciler(db, venues, logger, { intervalMs: config.SIM_RECONCILE_INTERVAL_MS, staleMs: inFlightMs, resendMaxAgeMs: config.LIVE_RESEND_MAX_AGE_MS })
    : null;
  // The test environment's markets close at their time; seeded ones then resolve by the seeded rule (docs/settlement.md).
  const closings = config.MARKET_CLOSE_SWEEP_MS > 0
    ? startScheduledClosings(db, venues, logger, { intervalMs: config.MARKET_CLOSE_SWEEP_MS, resolveAfterMs: config.SEEDED_MARKET_RESOLVE_AFTER_MS })
    : null;
  // gtd orders: recorded expired once their venue took them off its book at their time (docs/trading.md).
  const expirySweep = config.ORDER_EXPIRY_SWEEP_MS > 0 ? startExpirySweep(db, venues, logger, { intervalMs: config.ORDER_EXPIRY_SWEEP_MS }) : null;
  const scheduler = config.SCHEDULER_ENABLED
    ? startComplexOrderScheduler(db, venues, logger, { intervalMs: config.SCHEDULER_INTERVAL_MS, staleMs: config.SCHEDULER_STALE_MS })
    : null;
  // The dead-man's switches: every core fires lapsed ones (once) and finishes abandoned cancellations (docs/dead-mans-switch.md).
  const deadMansSwitches = startDeadMansSwitchSweeper(db, venues, venues.live, keepAlive, logger, {
    intervalMs: config.DEAD_MANS_SWITCH_SWEEP_MS,
    leaseMs: config.DEAD_MANS_SWITCH_LEASE_MS,
  });
  const sequencer = startEventSequencer(db, events, logger, { intervalMs: config.EVENT_SEQUENCE_INTERVAL_MS }); // docs/events.md
  // The retention window (docs/events.md "Retention"): every core deletes expired events, unless they are kept for ever.
  const retention = config.EVENT_RETENTION_DAYS > 0 ? startEventRetention(db, logger, { windowMs: eventRetentionMs(config), onSwept: (swept) => metrics.expiredSwept(swept) }) : null;
  // Webhooks (docs/webhooks.md): every core sends the deliveries due, each claimed by one core at a time.
  const webhooks = startWebhookWorker(db, credentialKeys, eventRenderer({ db, config, revocations, venues, logger, credentialKeys }), logger, {
    intervalMs: config.WEBHOOK_WORKER_INTERVAL_MS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    baseMs: config.WEBHOOK_RETRY_BASE_MS,
    maxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS,
    windowMs: config.WEBHOOK_RETRY_WINDOW_MS,
    allowPrivateAddresses: config.WEBHOOK_ALLOW_PRIVATE_URLS,
    onAttempt: (outcome) => metrics.webhookAttempt(outcome),
  });
  const catalogs = startCatalogSyncs(db, VENUE_MODULES, config, logger); // the live venues' markets (docs/kalshi.md and docs/polymarket.md, "Live catalog")
  return {
    handler,
    fetch,
    metrics: metrics.registry,
    db,
    databaseUrl: database.url,
    revocations,
    events,
    venues,
    async close() {
      clearInterval(expiry);
      await sequencer.stop();
      await retention?.stop();
      await webhooks.stop();
      await deadMansSwitches.stop();
      await scheduler?.stop();
      await closings?.stop();
      await expirySweep?.stop();
      await catalogs.stop();
      await reconciler?.stop();
      await venueSettlements?.stop();
      await simulatedReconciler?.stop();
      await deadClaims.stop();
      await venues.close();
      await revocations.close();
      await events.close();
      await db.$disconnect();
      await database.close();
    },
  };
}

/** Where the live venues' accounts report fills and order changes: the core's bookkeeping (VenueModule.openLive). */
function liveSinks(db: Db, logger: Logger, notices: Pick<LiveVenueSinks, 'marketSettled' | 'marketMoved'>): LiveVenueSinks {
  return {
    ...notices,
    recordFills: (venue, fills) => recordNewFills(db, venue, fills, logger),
    recordFillsAndFailures: (venue, listed) => recordFillsAndFailures(db, venue, listed, logger),
    recordState: (orderId, state) => recordExecution(db, orderId, { fills: [], state }),
  };
}
