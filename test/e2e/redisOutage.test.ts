/**
 * Redis down under two gateways that share it (rate limits, revocations): every request with a
 * valid key is answered `503 service_unavailable` with `Retry-After`, within a second, never a 500
 * (limits fail closed, the failed-authentication count included: no key is looked up unmetered);
 * a key revoked while Redis is down (the broadcast fails, the revocation stands) is refused by both
 * gateways during the outage (503, never 200) and 401 after it, although each had it in its
 * authentication cache with a long TTL: a gateway that cannot hear revocations keeps no cache
 * (revocations fail closed). The gateways recover without a restart. A
 * Redis server of the suite's own (privateRedis.ts), so that stopping it stops no other suite's.
 */
import { revokeApiKey } from '../../core/services/accounts/apiKeys';
import { testConfig } from '../support/env';
import { buildApiKey, buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { startPrivateRedis, type PrivateRedis } from '../support/privateRedis';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../trading/helpers';

const OUTAGE_MS = 5_000;
const CORE_TIMEOUT_MS = 5000;

let redis: PrivateRedis;
let stack: Stack;

beforeAll(async () => {
  redis = await startPrivateRedis();
  // A long authentication cache: only the revocation bus, or its absence, can make a gateway forget a key.
  stack = await startStack(testConfig({ REDIS_URL: redis.url, AUTH_CACHE_TTL_MS: '60000', CORE_TIMEOUT_MS: String(CORE_TIMEOUT_MS) }), 'split', 2);
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await redis?.stop();
});

it('answers 503 with Retry-After while Redis is down, refuses a key revoked meanwhile once it is back, and recovers without a restart', async () => {
  const { workspace, secret: kept } = await buildWorkspace(stack.core.db, { rateLimit: 100_000, name: 'Redis outage' });
  const revoked = await buildApiKey(stack.core.db, workspace.id, 'test', 100_000);
  const get = (gateway: string, key: string) => call(gateway, 'GET', '/v1/subaccounts', { key });
  // Both keys authenticated, so cached, on both gateways.
  for (const gateway of stack.gateways) for (const key of [kept, revoked.secret]) expect((await get(gateway, key)).status).toBe(200);

  await redis.stop();
  const { announced } = await revokeApiKey(stack.core.db, stack.core.revocations, workspace.id, revoked.key.id);
  expect(announced).toBe(false); // the broadcast failed; the revocation is in the database all the same

  const answers: { key: 'kept' | 'revoked'; status: number; ms: number; retryAfter: string | null; code: string }[] = [];
  const until = Date.now() + OUTAGE_MS;
  await Promise.all(
    stack.gateways.flatMap((gateway) =>
      [kept, revoked.secret].map(async (key) => {
        while (Date.now() < until) {
          const started = Date.now();
          const response = await get(gateway, key);
          answers.push({ key: key === kept ? 'kept' : 'revoked', status: response.status, ms: Date.now() - started, retryAfter: response.headers.get('retry-after'), code: response.status >= 400 ? envelopeOf(response).code : 'ok' });
        }
      }),
    ),
  );
  const keptAnswers = answers.filter((a) => a.key === 'kept');
  const revokedAnswers = answers.filter((a) => a.key === 'revoked');
  expect(keptAnswers.length).toBeGreaterThan(2);
  expect(revokedAnswers.length).toBeGreaterThan(2);
  // Rate limits fail closed: no request goes by unmetered.
  expect(keptAnswers.every((a) => a.status === 503 && a.code === 'service_unavailable' && a.retryAfter === '1')).toBe(true);
  // Refused too: the count of failed authentications (gateway/middleware/authFailures.ts) is in
  // Redis, and is read before any lookup.
  expect(revokedAnswers.every((a) => a.status === 503 && a.code === 'service_unavailable')).toBe(true);
  const slowest = Math.max(...answers.map((a) => a.ms));
  expect(slowest).toBeLessThan(CORE_TIMEOUT_MS); // within the gateway's timeout: Redis commands give up after 0.5 s

  await redis.start();
  const restarted = Date.now();
  for (const gateway of stack.gateways) await waitFor(() => get(gateway, kept).then((r) => r.status), (status) => status === 200, 15_000);
  const recoveredMs = Date.now() - restarted;
  for (const gateway of stack.gateways) {
    // Revocations fail closed: with no bus to hear them, nothing was kept in the cache, and the database says revoked.
    const refused = await get(gateway, revoked.secret);
    expect(refused.status).toBe(401);
    expect(envelopeOf(refused).code).toBe('unauthorized');
  }
  console.log(
    `Redis down ${OUTAGE_MS / 1000} s under two gateways: ${keptAnswers.length} requests with a valid key, all 503 service_unavailable with Retry-After: 1; ` +
      `${revokedAnswers.length} with a key revoked meanwhile (broadcast failed), all refused 503 (slowest answer ${slowest} ms); 401 from both gateways once Redis was back; 200 again ${recoveredMs} ms after Redis restarted, no restart of the gateways`,
  );
}, 60_000);
