import { loadConfig, type Config } from '../../core/config';

export const databaseUrl = () => {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is set by test/support/globalSetup.ts');
  return url;
};

export const redisUrl = () => process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export const INTERNAL_SECRET = 'test-internal-secret-0123456789abcdef';

/**
 * A validated config for tests: the run's database, quiet logs, overrides on top. The complex-order
 * scheduler is off unless a suite turns it on: the suites' cores keep their simulated venues in memory (no SIM_VENUE_URL), and
 * a scheduler of another suite's core would send a suite's due children to its own books. The
 * live and simulated reconcilers are off too: a reconciler claims every stale order of its kind in its
 * database, so a suite that turns one on uses a database of its own (ownDatabase.ts). So is the
 * closing of test helpers' markets at their closes_at (MARKET_CLOSE_SWEEP_MS), for the same reason:
 * it would cancel another suite's orders through its own books. So is the expiry sweep (ORDER_EXPIRY_SWEEP_MS),
 * which a suite about expiring orders turns on. The live Kalshi catalog sync is off too
 * (it would call Kalshi itself); a suite that wants it points `KALSHI_*_URL` at the fake and sets
 * `KALSHI_CATALOG_SYNC_MS`. Every suite's requests come from one address (loopback) and many refuse
 * credentials on purpose: the failed-authentication limit is one they never reach, unless a suite
 * sets `AUTH_FAILURES_PER_MINUTE` (test/gateway/authFailures.test.ts). Likewise the analysts' own
 * rate (`ANALYST_RATE_LIMIT`), which a suite about it sets (test/core/analystHardening.test.ts).
 */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: databaseUrl(), LOG_LEVEL: 'silent', INTERNAL_TOKEN: INTERNAL_SECRET, SCHEDULER_ENABLED: 'false', LIVE_RECONCILER_ENABLED: 'false', SIM_RECONCILER_ENABLED: 'false', MARKET_CLOSE_SWEEP_MS: '0', ORDER_EXPIRY_SWEEP_MS: '0',
    KALSHI_CATALOG_SYNC_MS: '0', AUTH_FAILURES_PER_MINUTE: '1000000', ANALYST_RATE_LIMIT: '1000000',
    ...overrides,
  });
}
