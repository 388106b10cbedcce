import { createHash, timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * Prometheus plumbing shared by the gateway and the core (docs/operations.md). Each service keeps
 * its metrics in a registry of its own, so that several gateways and cores in one process (tests,
 * `npm start`) never collide; the process's own metrics (CPU, memory, event loop, GC) live once per
 * process, since they describe the process rather than a service.
 */

/** Every metric of ours starts with this, apart from prom-client's default process metrics. */
export const METRIC_PREFIX = 'mk_';

let processRegistry: Registry | undefined;

/** prom-client's default metrics, collected once per process however many services it hosts. */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** The exposition text of the process's metrics and the given services', as one scrape. */
export async function exposition(registries: readonly Registry[]): Promise<{ contentType: string; text: string }> {
  // Merged per scrape (a few dozen metric objects): a registry given later is never missed.
  const merged = Registry.merge([processMetrics(), ...registries]);
  return { contentType: merged.contentType, text: await merged.metrics() };
}

/**
 * HTTP request latency by method, route template and status. Its `_count` series is the request
 * count, so there is no separate counter to disagree with it.
 */
export function httpDurationHistogram(registry: Registry, service: 'gateway' | 'core'): Histogram<'method' | 'route' | 'status'> {
  return new Histogram({
    name: `${METRIC_PREFIX}${service}_http_request_duration_seconds`,
    help: `Requests the ${service} answered, by method, route template and status: latency in seconds (_count is the number of requests).`,
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
}

/** Seconds since `started` (process.hrtime.bigint()), for a histogram. */
export function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Whether a request may read /metrics: always without METRICS_TOKEN, else only with `Authorization: Bearer <METRICS_TOKEN>`. */
export function metricsAllowed(token: string | undefined, authorization: string | undefined): boolean {
  return token === undefined || bearerTokenMatches(token, authorization);
}

/**
 * Whether `authorization` is `Bearer <token>`. Both sides are hashed first, so the comparison
 * takes the same time whatever the length or content of what was sent.
 */
export function bearerTokenMatches(token: string, authorization: string | undefined): boolean {
  const match = /^Bearer (\S+)$/.exec(authorization ?? '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
