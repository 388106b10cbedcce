import type { Logger } from './logger';

/**
 * How a background job that reaches outside (a live catalog sync) reports its failures: the first
 * failure of a streak once, as a warning that says what is off and how to set it; the next ones of
 * the same streak at debug only (a start without internet would otherwise warn every interval);
 * the first success after a streak, once, at info. Nothing secret goes in: the jobs read public
 * data from configured URLs.
 */
export function failureStreak(logger: Logger, what: { job: string; consequence: string; howToSet: string }) {
  let failures = 0;
  return {
    failed(error: unknown, context: Record<string, unknown> = {}) {
      failures += 1;
      if (failures === 1) {
        logger.warn({ err: error, ...context }, `${what.job} failed: ${what.consequence}. It is tried again at each interval and this is said once until it succeeds; ${what.howToSet}`);
      } else {
        logger.debug({ err: error, ...context, failures }, `${what.job} failed again`);
      }
    },
    succeeded() {
      if (failures > 0) logger.info({ failures }, `${what.job} succeeded after ${failures} failed attempt${failures === 1 ? '' : 's'}`);
      failures = 0;
    },
  };
}
