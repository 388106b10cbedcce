import type { Context, Middleware } from 'koa';
import { Counter, Gauge, Registry } from 'prom-client';
import { httpDurationHistogram, METRIC_PREFIX, secondsSince } from '../core/support/metrics';
import type { ApiErrorCode } from './errors';

/** The gateway's own rate limits: each credential's per-second budget, the sign-in limits, and failed authentications per address. */
export const RATE_LIMITERS = ['credential', 'sign_in_address', 'sign_in_email', 'sign_in_user', 'auth_failures'] as const;
export type RateLimiterName = (typeof RATE_LIMITERS)[number];

/** The refusals of a reused Idempotency-Key (docs/trading.md): still in flight, or another request. */
const IDEMPOTENCY_CONFLICTS: readonly string[] = ['idempotency_key_in_use', 'idempotency_key_reused'] satisfies ApiErrorCode[];

/**
 * The gateway's metrics (docs/operations.md): every request by route template and status, the
 * rate-limit refusals by limiter, and idempotent replays and conflicts as clients see them. Route
 * labels are the route table's templates (`/v1/orders/{id}`), never a request's own path, so ids
 * cannot multiply the series; a path no route matches is `unmatched`.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests = httpDurationHistogram(this.registry, 'gateway');
  private readonly rateLimitRejections = new Counter({
    name: `${METRIC_PREFIX}gateway_rate_limit_rejections_total`,
    help: "Requests the gateway refused with 429 under one of its own limits: credential (a key's or token's per-second budget), sign_in_address, sign_in_email, sign_in_user. A venue's rate limit is counted by the core (mk_venue_orders_total).",
    labelNames: ['limiter'],
    registers: [this.registry],
  });
  private readonly idempotentReplays = new Counter({
    name: `${METRIC_PREFIX}gateway_idempotent_replays_total`,
    help: 'Answers replayed from an earlier request with the same Idempotency-Key (Idempotent-Replayed: true), by route.',
    labelNames: ['route'],
    registers: [this.registry],
  });
  private readonly idempotencyConflicts = new Counter({
    name: `${METRIC_PREFIX}gateway_idempotency_conflicts_total`,
    help: 'Requests refused for their Idempotency-Key, by route and code: idempotency_key_in_use (409) or idempotency_key_reused (422).',
    labelNames: ['route', 'code'],
    registers: [this.registry],
  });

  constructor() {
    // Every limiter's series exists from the start, at 0: a rate over it needs no first refusal.
    for (const limiter of RATE_LIMITERS) this.rateLimitRejections.inc({ limiter }, 0);
  }

  /** The gauge of open event streams and subscriptions, read from `count` at each scrape. */
  countStreams(count: () => number): void {
    new Gauge({
      name: `${METRIC_PREFIX}gateway_event_streams_open`,
      help: 'Event streams (GET /v1/events/stream) and analysts’ subscriptions open on this gateway.',
      registers: [this.registry],
      collect() {
        this.set(count());
      },
    });
  }

  rateLimited(limiter: RateLimiterName): void {
    this.rateLimitRejections.inc({ limiter });
  }

  /**
   * Times every request, outside the error envelope so that it sees the status and headers the
   * client gets. The envelope leaves the error's code in `ctx.state.errorCode`.
   */
  middleware(): Middleware {
    return async (ctx, next) => {
      const started = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const route = routeTemplate(ctx);
        this.requests.observe({ method: ctx.method, route, status: String(ctx.status) }, secondsSince(started));
        if (ctx.response.get('Idempotent-Replayed') === 'true') this.idempotentReplays.inc({ route });
        const code = ctx.state.errorCode as string | undefined;
        if (code !== undefined && IDEMPOTENCY_CONFLICTS.includes(code)) this.idempotencyConflicts.inc({ route, code });
      }
    };
  }
}

/** The template of the route that answered (`/v1/orders/:id` written `/v1/orders/{id}`, as in the OpenAPI document), else `unmatched`. */
function routeTemplate(ctx: Context): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? matched.replace(/:(\w+)/g, '{$1}') : 'unmatched';
}
