import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/prismaClient';
import { UNCONFIRMED_STATUSES } from '../domain/orderLifecycle';
import { isSimulated, VENUE_NAMES, type VenueName } from '../venues/venueModules';
import { reconciliationBacklog, type BacklogGroup } from '../services/orders/orderBacklog';
import { eventBacklog, type EventBacklog } from '../services/events/eventBacklog';
import type { Logger } from '../support/logger';
import { httpDurationHistogram, METRIC_PREFIX } from '../support/metrics';
import { withinTime } from '../support/readiness';
import type { VenueCall, VenueCallObserver } from '../venues/observedVenue';
import type { WebhookAttemptOutcome } from '../services/events/webhookDeliveries';

/** What readiness reports of a venue: never a reason to be unready (docs/operations.md). */
export interface VenueView {
  status: 'up' | 'down' | 'unknown';
  /** The last call this core made to it, when there was one: did the venue answer. */
  last_call_at?: string;
}

export interface CoreMetricsOptions {
  db: Db;
  logger: Logger;
  /** `pending` orders count as backlog once untouched this long (LIVE_PENDING_STALE_MS). */
  pendingStaleMs: number;
  /** The longest a scrape waits for the backlog query (READINESS_TIMEOUT_MS). */
  queryTimeoutMs: number;
  /** The simulated venues are a service (SIM_VENUE_URL): reported by this core's last call to them, as a live venue is. */
  simulatedVenuesRemote?: boolean;
}

/**
 * The core's metrics: its HTTP requests (when it listens on its own port), every venue call
 * (latency by venue and operation; orders by venue and outcome) and the reconciliation backlog,
 * read from the database at each scrape. Every venue call passes `record`, which also remembers
 * whether each venue answered last time, for the readiness report.
 */
export class CoreMetrics implements VenueCallObserver {
  readonly registry = new Registry();
  readonly http = httpDurationHistogram(this.registry, 'core');
  private readonly venueOrders = new Counter({
    name: `${METRIC_PREFIX}venue_orders_total`,
    help: 'Orders sent to a venue (client orders, complex-order children, reconciler re-sends), by venue and outcome (accepted, rejected, unknown, not_sent, failed); reason: the refusal code, or why it was not sent.',
    labelNames: ['venue', 'outcome', 'reason'],
    registers: [this.registry],
  });
  private readonly venueCalls = new Histogram({
    name: `${METRIC_PREFIX}venue_call_duration_seconds`,
    help: 'Calls to a venue, by venue and operation: latency in seconds (_count is the number of calls).',
    labelNames: ['venue', 'operation'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly webhookAttempts = new Counter({
    name: `${METRIC_PREFIX}webhook_attempts_total`,
    help: 'Webhook delivery attempts this core made, by outcome: acknowledged (2xx), refused (another HTTP status), unanswered (timeout, connection or address refused), given_up (the last one of a delivery that failed).',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly expiredDeleted = new Counter({
    name: `${METRIC_PREFIX}event_log_expired_deleted_total`,
    help: 'Rows this core\'s retention sweeper deleted (EVENT_RETENTION_DAYS), by kind: events, webhook_deliveries.',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  private readonly lastCalls = new Map<VenueName, { at: Date; reached: boolean }>();
  private backlogRead?: Promise<BacklogGroup[] | null>;
  private eventBacklogRead?: Promise<EventBacklog | null>;

  constructor(private readonly options: CoreMetricsOptions) {
    const backlog = () => this.backlog();
    new Gauge({
      name: `${METRIC_PREFIX}reconciler_backlog_orders`,
      help: 'Orders awaiting reconciliation, by venue and status: every unknown one, and pending ones untouched past LIVE_PENDING_STALE_MS. Absent when the database could not be read.',
      labelNames: ['venue', 'status'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const groups = await backlog();
        if (groups === null) return;
        // Every venue and status at 0 first: an empty backlog is a 0, and only an unread one is absent.
        for (const venue of VENUE_NAMES) for (const status of UNCONFIRMED_STATUSES) this.set({ venue, status }, 0);
        for (const group of groups) this.set({ venue: group.venue, status: group.status }, group.orders);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}reconciler_backlog_oldest_seconds`,
      help: 'Age in seconds (since creation) of the oldest order awaiting reconciliation, by venue and status.',
      labelNames: ['venue', 'status'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const group of (await backlog()) ?? []) this.set({ venue: group.venue, status: group.status }, group.oldestSeconds);
      },
    });
    this.eventGauges();
  }

  /** The event log's gauges: one query per scrape, shared; absent when the database did not answer in time. */
  private eventGauges(): void {
    const read = () => this.eventBacklog();
    const gauge = (name: string, help: string, value: (backlog: EventBacklog) => number) =>
      new Gauge({
        name: `${METRIC_PREFIX}${name}`,
        help,
        registers: [this.registry],
        async collect() {
          this.reset();
          const backlog = await read();
          if (backlog) this.set(value(backlog));
        },
      });
    gauge('event_log_unnumbered_events', 'Events committed and not numbered yet (docs/events.md): nobody can read them until the sequencer numbers them.', (b) => b.unnumbered);
    gauge('event_log_unnumbered_oldest_seconds', 'Age of the oldest event not numbered yet; 0 when none. Growing: numbering has stopped.', (b) => b.oldestUnnumberedSeconds);
    gauge('webhook_deliveries_due', 'Webhook deliveries due now and not under way (docs/webhooks.md).', (b) => b.webhooksDue);
    gauge('webhook_deliveries_due_oldest_seconds', 'How long the longest-waiting due webhook delivery has been due; 0 when none. Growing: the workers are not keeping up.', (b) => b.oldestWebhookDueSeconds);
  }

  private eventBacklog(): Promise<EventBacklog | null> {
    this.eventBacklogRead ??= withinTime(eventBacklog(this.options.db), this.options.queryTimeoutMs)
      .catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'metrics: the event log backlog could not be read');
        return null;
      })
      .finally(() => {
        this.eventBacklogRead = undefined;
      });
    return this.eventBacklogRead;
  }

  record(call: VenueCall): void {
    this.venueCalls.observe({ venue: call.venue, operation: call.operation }, call.seconds);
    if (call.order) this.venueOrders.inc({ venue: call.venue, outcome: call.order.outcome, reason: call.order.reason ?? '' });
    this.lastCalls.set(call.venue, { at: new Date(), reached: call.reached });
  }

  /** One webhook attempt (services/events/webhookDeliveries.ts). */
  webhookAttempt(outcome: WebhookAttemptOutcome): void {
    this.webhookAttempts.inc({ outcome });
  }

  /** One sweep of the retention window (services/events/eventRetention.ts). */
  expiredSwept(swept: { events: number; deliveries: number }): void {
    this.expiredDeleted.inc({ kind: 'events' }, swept.events);
    this.expiredDeleted.inc({ kind: 'webhook_deliveries' }, swept.deliveries);
  }

  /**
   * A venue as far as this core knows without calling it: a simulated one runs in this process; a
   * live one is `up` or `down` by whether it answered this core's last call, `unknown` before any.
   */
  venueView(venue: VenueName): VenueView {
    if (isSimulated(venue) && !this.options.simulatedVenuesRemote) return { status: 'up' };
    const last = this.lastCalls.get(venue);
    if (!last) return { status: 'unknown' };
    return { status: last.reached ? 'up' : 'down', last_call_at: last.at.toISOString() };
  }

  /** One backlog query per scrape, shared by both gauges; null when the database did not answer in time. */
  private backlog(): Promise<BacklogGroup[] | null> {
    this.backlogRead ??= this.readBacklog().finally(() => {
      this.backlogRead = undefined;
    });
    return this.backlogRead;
  }

  private async readBacklog(): Promise<BacklogGroup[] | null> {
    try {
      return await withinTime(reconciliationBacklog(this.options.db, this.options.pendingStaleMs), this.options.queryTimeoutMs);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'metrics: the reconciliation backlog could not be read');
      return null;
    }
  }
}
