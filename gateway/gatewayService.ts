import { redisClient } from '../contract/redisClient';
import type Koa from 'koa';
import type { Registry } from 'prom-client';
import type { Config } from '../core/config';
import { loadOperations } from '../contract/operations';
import type { RevocationBus } from '../contract/revocationBus';
import type { Logger } from '../core/support/logger';
import { createEventNotices, MARKET_NOTICE_TOPIC, type EventNotices } from '../contract/eventNotices';
import { buildGatewayApp } from './app';
import { EventStreams } from './eventStreams';
import { StreamAdmission } from './streamAdmission';
import { AuthCache } from './authCache';
import { CatalogCache } from './catalogCache';
import { MarketStreams } from './marketStreams';
import { BookCache } from './bookCache';
import { CoreClient, type CoreTransport } from './coreClient';
import type { Authenticated } from './middleware/authenticate';
import { GatewayMetrics } from './metrics';
import { gatewayReadiness } from './operatorRoutes';

export interface GatewayService {
  app: Koa;
  /** Ends every event stream (their clients reconnect elsewhere with Last-Event-ID): first thing on shutdown, before waiting for requests to finish. */
  endStreams(): void;
  close(): Promise<void>;
}

/**
 * The gateway's parts: the core client over a transport, the authentication cache (kept only when
 * a revocation bus reaches this process), Redis for shared rate limits when configured, and the
 * operator's endpoints. `coreMetrics`: the core's registry when the core runs in this process
 * (`npm start`), served with the gateway's at /metrics.
 */
export function openGateway(
  config: Config,
  options: {
    transport: CoreTransport;
    internalSecret: string;
    revocations: RevocationBus;
    revocationsReachUs: boolean;
    logger: Logger;
    coreMetrics?: Registry;
    /** The event log's notices: the core's when it runs in this process (npm start); else this gateway's own, over REDIS_URL. */
    events?: EventNotices;
  },
): GatewayService {
  const core = new CoreClient(options.transport, loadOperations(), options.internalSecret, config.CORE_TIMEOUT_MS);
  const ttl = options.revocationsReachUs ? config.AUTH_CACHE_TTL_MS : 0;
  const authCache = new AuthCache<Authenticated>(ttl, options.revocations);
  const redis = config.REDIS_URL ? redisClient(config.REDIS_URL) : undefined;
  const ownNotices = options.events ? undefined : createEventNotices(config.REDIS_URL);
  const metrics = new GatewayMetrics();
  const admission = new StreamAdmission(
    { maxPerCredential: config.EVENT_STREAMS_PER_KEY, maxPerWorkspace: config.EVENT_STREAMS_PER_WORKSPACE, heartbeatMs: config.EVENT_STREAM_HEARTBEAT_MS },
    redis,
  );
  const streams = new EventStreams(core, options.events ?? ownNotices!, options.logger, {
    heartbeatMs: config.EVENT_STREAM_HEARTBEAT_MS,
    pollMs: config.EVENT_STREAM_POLL_MS,
    maxAgeMs: config.EVENT_STREAM_MAX_AGE_MS,
    catchUpReads: config.EVENT_CATCH_UP_PER_WORKSPACE,
    catchUpEventsPerSecond: config.EVENT_CATCH_UP_EVENTS_PER_SECOND,
  }, admission);
  const books = new BookCache(config.MARKET_STREAM_POLL_MS);
  void (async () => {
    for await (const notice of (options.events ?? ownNotices!).pubSub.subscribe(MARKET_NOTICE_TOPIC)) books.invalidate(notice.marketId);
  })();
  const marketStreams = new MarketStreams(core, options.events ?? ownNotices!, options.logger, {
    heartbeatMs: config.EVENT_STREAM_HEARTBEAT_MS,
    pollMs: config.MARKET_STREAM_POLL_MS,
    maxAgeMs: config.EVENT_STREAM_MAX_AGE_MS,
  }, admission);
  // A revoked key's streams and subscriptions end with it (docs/events.md).
  options.revocations.subscribe((keyId) => admission.endCredential(keyId));
  metrics.countStreams(() => admission.openHere);
  const app = buildGatewayApp({
    core,
    authCache,
    catalog: new CatalogCache(config.CATALOG_CACHE_MS),
    redis,
    logger: options.logger,
    dashboardRateLimit: config.RATE_LIMIT_DEFAULT,
    signInAttemptsPerMinute: config.SIGN_IN_ATTEMPTS_PER_MINUTE,
    authFailuresPerMinute: config.AUTH_FAILURES_PER_MINUTE,
    trustProxy: config.TRUST_PROXY,
    streams,
    marketStreams,
    books,
    subscriptions: { admission, maxAgeMs: config.EVENT_STREAM_MAX_AGE_MS, recheckMs: config.EVENT_STREAM_HEARTBEAT_MS },
    analystQueries: {
      ratePerCredential: config.ANALYST_RATE_LIMIT,
      concurrencyPerCredential: config.ANALYST_CONCURRENCY_PER_CREDENTIAL,
      maxAnswerBytes: config.ANALYST_MAX_ANSWER_BYTES,
    },
    operator: {
      metrics,
      alsoServe: options.coreMetrics ? [options.coreMetrics] : [],
      metricsToken: config.METRICS_TOKEN,
      readiness: gatewayReadiness({ core, redis, revocations: options.revocations, timeoutMs: config.READINESS_TIMEOUT_MS }),
    },
  });
  return {
    app,
    endStreams: () => {
      admission.close();
    },
    async close() {
      admission.close();
      await ownNotices?.close();
      redis?.disconnect();
      await core.close();
    },
  };
}
