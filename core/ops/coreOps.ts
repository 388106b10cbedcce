import type http from 'node:http';
import { ANALYST_GRAPHQL_PATH, CORE_GRAPHQL_PATH, OPS_PATHS } from '../../contract/endpoints';
import type { RevocationBus } from '../../contract/revocationBus';
import type { Db } from '../db/prismaClient';
import { VENUE_NAMES, venueColumn, type VenueName } from '../venues/venueModules';
import type { Logger } from '../support/logger';
import { exposition, metricsAllowed, secondsSince } from '../support/metrics';
import { readinessProbe, readinessStatus, type Check, type ReadinessReport, type TimedCheck } from '../support/readiness';
import type { VenueRegistry } from '../venues/venue';
import type { CoreMetrics, VenueView } from './coreMetrics';

/** The core's readiness: its dependencies, and the venues it trades on (reported, never gating). */
export interface CoreReadiness extends ReadinessReport {
  venues: Partial<Record<VenueName, VenueView>>;
}

export interface OpsAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface CoreOpsDeps {
  db: Db;
  revocations: RevocationBus;
  venues: VenueRegistry;
  metrics: CoreMetrics;
  logger: Logger;
  /** Set: REDIS_URL is configured, and Redis is a dependency. */
  redis: boolean;
  metricsToken?: string;
  readinessTimeoutMs: number;
}

export interface CoreOps {
  /** The answer to a request for one of OPS_PATHS; undefined for any other path. */
  answer(method: string, path: string, authorization: string | undefined): Promise<OpsAnswer> | undefined;
  /** An HTTP listener that answers OPS_PATHS itself, passes everything else to `next`, and times every request. */
  listener(next: http.RequestListener): http.RequestListener;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const OPS = new Set<string>(Object.values(OPS_PATHS));
/** The core's route templates, for the request histogram: its few fixed paths, everything else one label. */
const ROUTES = new Set<string>([CORE_GRAPHQL_PATH, ANALYST_GRAPHQL_PATH, ...OPS]);

/**
 * GET /healthz, /readyz and /metrics on the core. They answer before the signed-principal check
 * (a probe or a scraper carries no principal) and say nothing secret: check names, up or down, a
 * reason in our own words, timings, and metrics without ids.
 *
 * Readiness checks the database and, when REDIS_URL is set, the revocation channel (Redis). Venues
 * are reported as far as known without calling them, and never make the core unready: a venue's
 * outage is every core's at once, and taking them all out of service would also stop the test
 * environment and every read.
 */
export function coreOps(deps: CoreOpsDeps): CoreOps {
  const within = (run: Check): TimedCheck => ({ run, timeoutMs: deps.readinessTimeoutMs });
  const probe = readinessProbe({
    database: within(async () => void (await deps.db.$queryRaw`SELECT 1`)),
    ...(deps.redis ? { redis: within(() => deps.revocations.ready()) } : {}),
  });
  const readiness = async (): Promise<CoreReadiness> => {
    const report = await probe();
    const venues: CoreReadiness['venues'] = {};
    for (const name of VENUE_NAMES) if (deps.venues.marketData(venueColumn(name))) venues[name] = deps.metrics.venueView(name);
    return { ...report, venues };
  };

  const answer = async (path: string, authorization: string | undefined): Promise<OpsAnswer> => {
    if (path === OPS_PATHS.health) return json(200, { status: 'ok' });
    if (path === OPS_PATHS.ready) {
      const report = await readiness();
      return json(readinessStatus(report), report);
    }
    if (!metricsAllowed(deps.metricsToken, authorization)) {
      return json(401, { errors: [{ message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.', extensions: { code: 'unauthorized' } }] }, { 'www-authenticate': 'Bearer' });
    }
    const { contentType, text } = await exposition([deps.metrics.registry]);
    return { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' }, body: text };
  };

  const ops: CoreOps = {
    answer(method, path, authorization) {
      if (!OPS.has(path)) return undefined;
      if (method !== 'GET' && method !== 'HEAD') {
        return Promise.resolve(json(405, { errors: [{ message: `${method} is not allowed on ${path}.`, extensions: { code: 'method_not_allowed' } }] }, { allow: 'GET, HEAD' }));
      }
      return answer(path, authorization).catch((error: unknown) => {
        deps.logger.error({ err: error, path }, 'operator endpoint failed');
        return json(500, { errors: [{ message: 'Internal error.', extensions: { code: 'internal_error' } }] });
      });
    },
    listener(next) {
      return (req, res) => {
        const started = process.hrtime.bigint();
        const path = pathOf(req.url);
        res.once('finish', () => {
          deps.metrics.http.observe(
            { method: req.method ?? '', route: ROUTES.has(path) ? path : 'unmatched', status: String(res.statusCode) },
            secondsSince(started),
          );
        });
        const opsAnswer = ops.answer(req.method ?? '', path, req.headers.authorization);
        if (!opsAnswer) return next(req, res);
        void opsAnswer.then((answered) => {
          res.writeHead(answered.status, answered.headers);
          res.end(req.method === 'HEAD' ? undefined : answered.body);
        });
      };
    },
  };
  return ops;
}

function json(status: number, value: unknown, headers: Record<string, string> = {}): OpsAnswer {
  return { status, headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...headers }, body: JSON.stringify(value) };
}

function pathOf(url: string | undefined): string {
  const end = url?.search(/[?#]/) ?? -1;
  return url === undefined ? '' : end === -1 ? url : url.slice(0, end);
}
