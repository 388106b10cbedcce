import type Router from '@koa/router';
import type Redis from 'ioredis';
import type { Registry } from 'prom-client';
import { OPS_PATHS } from '../contract/endpoints';
import type { RevocationBus } from '../contract/revocationBus';
import { exposition, metricsAllowed } from '../core/support/metrics';
import { CheckFailed, readinessProbe, readinessStatus, type CheckDetails, type ReadinessReport } from '../core/support/readiness';
import type { CoreClient } from './coreClient';
import { GATEWAY } from './dashboardSession';
import { ApiError } from './errors';
import type { GatewayMetrics } from './metrics';

export interface OperatorDeps {
  metrics: GatewayMetrics;
  /** Registries served with the gateway's own: the core's, when it runs in this process (`npm start`). */
  alsoServe: readonly Registry[];
  /** METRICS_TOKEN: when set, /metrics needs it as a bearer token. */
  metricsToken?: string;
  readiness: () => Promise<ReadinessReport>;
}

/**
 * GET /healthz (the process answers), /readyz (its dependencies answer: 503 naming those that do
 * not) and /metrics (Prometheus), beside the API on the gateway's port. No API key and no per-key
 * rate limit: probes and scrapers have neither. docs/operations.md.
 */
export function registerOperatorRoutes(router: Router, deps: OperatorDeps): void {
  router.get(OPS_PATHS.health, (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
  router.get(OPS_PATHS.ready, async (ctx) => {
    const report = await deps.readiness();
    ctx.set('Cache-Control', 'no-store');
    ctx.status = readinessStatus(report);
    ctx.body = report;
  });
  router.get(OPS_PATHS.metrics, async (ctx) => {
    if (!metricsAllowed(deps.metricsToken, ctx.get('Authorization') || undefined)) {
      throw new ApiError('unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.', { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    const { contentType, text } = await exposition([deps.metrics.registry, ...deps.alsoServe]);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = text;
  });
}

export interface GatewayReadinessDeps {
  core: CoreClient;
  /** The rate limits' Redis, when REDIS_URL is set. */
  redis?: Redis;
  revocations: RevocationBus;
  /** READINESS_TIMEOUT_MS: the longest each check waits; the core's own checks take up to that, so the core gets twice it. */
  timeoutMs: number;
}

/**
 * The gateway's readiness: the core answers its own /readyz with "ready" (its database, its Redis;
 * the core's report is shown under `core`), and Redis, when configured, answers for the rate
 * limits and the revocation channel.
 */
export function gatewayReadiness(deps: GatewayReadinessDeps): () => Promise<ReadinessReport> {
  return readinessProbe({
    core: { run: () => coreReadiness(deps.core), timeoutMs: 2 * deps.timeoutMs },
    ...(deps.redis
      ? {
          redis: {
            run: async () => {
              await deps.redis!.ping();
              await deps.revocations.ready();
            },
            timeoutMs: deps.timeoutMs,
          },
        }
      : {}),
  });
}

async function coreReadiness(core: CoreClient): Promise<CheckDetails> {
  const answer = await core.send({ method: 'GET', path: OPS_PATHS.ready, headers: {} }, GATEWAY).catch(() => {
    throw new CheckFailed('unreachable');
  });
  let report: Partial<ReadinessReport> & CheckDetails;
  try {
    report = JSON.parse(answer.text) as typeof report;
  } catch {
    throw new CheckFailed(`answered ${answer.status} without a readiness report`);
  }
  // Only the parts of the core's report a reader needs: its checks, and the venues it reports.
  const details = { checks: report.checks, venues: report.venues };
  if (answer.status === 200) return details;
  const down = Array.isArray(report.down) && report.down.length > 0 ? `: ${report.down.join(', ')} down` : '';
  throw new CheckFailed(`not ready${down}`, details);
}
