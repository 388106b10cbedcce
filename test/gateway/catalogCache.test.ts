import { newId } from '../../core/domain/ids';
import { createApiKey } from '../../core/services/accounts/apiKeys';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { startStack, type Stack } from '../support/stack';

/**
 * Catalog answers (markets) come from the gateway's short-lived cache, per environment: a change
 * shows within CATALOG_CACHE_MS, a market that did not exist is found as soon as it does (errors
 * are never kept), and every request is still authenticated and rate limited.
 */
/** Long enough that a kept answer is certain within one test, however loaded the machine. */
const TTL_MS = 60_000;
const SHORT_TTL_MS = 300;

describe('catalog cache', () => {
  let stack: Stack;
  let base: string;
  const createdMarkets: string[] = [];

  beforeAll(async () => {
    stack = await startStack(testConfig({ CATALOG_CACHE_MS: String(TTL_MS) }));
    base = stack.gateways[0];
  });
  afterAll(async () => {
    await stack.core.db.market.deleteMany({ where: { id: { in: createdMarkets } } });
    await stack.close();
  });

  /** A live market of this suite's own (the seeded test catalog is shared with other suites). */
  async function liveMarket(id = newId('market')) {
    createdMarkets.push(id);
    return stack.core.db.market.create({
      data: {
        id, environment: 'live', venue: 'kalshi', venueMarketId: `CACHE-${id}`,
        title: 'Catalog cache probe', category: 'test', tickSize: '0.01', minSize: '1',
      },
    });
  }

  async function liveKey(rateLimit?: number) {
    const { workspace, dashboardSecret } = await buildWorkspace(stack.core.db);
    const { key, secret } = await createApiKey(stack.core.db, { workspaceId: workspace.id, environment: 'live', rateLimit });
    return { key, secret, dashboardSecret };
  }

  it('serves the kept answer within the cache lifetime, to any key of the same environment', async () => {
    // The lifetime here is a minute: the kept answer is certain however slow the machine is.
    const market = await liveMarket();
    const { secret } = await liveKey();
    const first = await call(base, 'GET', `/v1/markets/${market.id}`, { key: secret });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: market.id, title: 'Catalog cache probe', venue: 'kalshi' });
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first.headers.get('cache-control')).toBe('no-store');

    await stack.core.db.market.update({ where: { id: market.id }, data: { title: 'Catalog cache probe, renamed' } });
    // Another workspace's key of the same environment gets the same kept answer.
    const other = await liveKey();
    const kept = await call(base, 'GET', `/v1/markets/${market.id}`, { key: other.secret });
    expect(kept.status).toBe(200);
    expect(kept.body.title).toBe('Catalog cache probe');
  });

  it('serves a change once the lifetime has passed, never later', async () => {
    // A gateway of its own with a short lifetime: the change must show within it (plus slack for
    // a loaded machine), which a cache that never expired would fail.
    const shortLived = await startStack(testConfig({ CATALOG_CACHE_MS: String(SHORT_TTL_MS) }));
    try {
      const market = await liveMarket();
      const { secret } = await liveKey();
      expect((await call(shortLived.gateways[0], 'GET', `/v1/markets/${market.id}`, { key: secret })).body.title).toBe('Catalog cache probe');
      const changedAt = Date.now();
      await stack.core.db.market.update({ where: { id: market.id }, data: { title: 'Catalog cache probe, renamed' } });
      let title = '';
      while (title !== 'Catalog cache probe, renamed' && Date.now() - changedAt < SHORT_TTL_MS + 5000) {
        title = (await call(shortLived.gateways[0], 'GET', `/v1/markets/${market.id}`, { key: secret })).body.title;
        if (title !== 'Catalog cache probe, renamed') await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(title).toBe('Catalog cache probe, renamed');
    } finally {
      await shortLived.close();
    }
  });

  it('keeps no error: a market not found is found as soon as it exists', async () => {
    const { secret } = await liveKey();
    const id = newId('market');
    const missing = await call(base, 'GET', `/v1/markets/${id}`, { key: secret });
    expect(missing.status).toBe(404);
    expect(envelopeOf(missing).code).toBe('not_found');
    await liveMarket(id);
    const found = await call(base, 'GET', `/v1/markets/${id}`, { key: secret });
    expect(found.status).toBe(200);
    expect(found.body.id).toBe(id);
  });

  it('keeps environments apart: a test key does not get the live answer a live key was given', async () => {
    const market = await liveMarket();
    const { secret: live } = await liveKey();
    expect((await call(base, 'GET', `/v1/markets/${market.id}`, { key: live })).status).toBe(200);
    const { secret: test } = await buildWorkspace(stack.core.db);
    const fromTest = await call(base, 'GET', `/v1/markets/${market.id}`, { key: test });
    expect(fromTest.status).toBe(404);
    expect(envelopeOf(fromTest).code).toBe('not_found');
    const search = await call(base, 'GET', '/v1/markets?q=catalog%20cache%20probe', { key: test });
    expect(search.status).toBe(200);
    expect(search.body.data).toEqual([]);
    const liveSearch = await call(base, 'GET', '/v1/markets?q=catalog%20cache%20probe', { key: live });
    expect(liveSearch.body.data.map((m: { id: string }) => m.id)).toContain(market.id);
  });

  it('still authenticates every request: a revoked key gets 401 for a kept answer', async () => {
    const market = await liveMarket();
    const { key, secret, dashboardSecret } = await liveKey();
    expect((await call(base, 'GET', `/v1/markets/${market.id}`, { key: secret })).status).toBe(200);
    const revoked = await call(base, 'DELETE', `/v1/api_keys/${key.id}`, { key: dashboardSecret, headers: { 'x-environment': 'live' } });
    expect(revoked.status).toBe(200);
    const after = await call(base, 'GET', `/v1/markets/${market.id}`, { key: secret });
    expect(after.status).toBe(401);
    expect(envelopeOf(after).code).toBe('unauthorized');
  });

  it('still rate limits every request: kept answers count against the key', async () => {
    const market = await liveMarket();
    const { secret } = await liveKey(2);
    // Six at once against 2 a second: however the 1 s windows fall, one window holds at least 3.
    const responses = await Promise.all(Array.from({ length: 6 }, () => call(base, 'GET', `/v1/markets/${market.id}`, { key: secret })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
  });

  it('answers a burst of requests for a market not yet kept with the same bytes', async () => {
    const market = await liveMarket();
    const { secret } = await liveKey(10_000);
    const responses = await Promise.all(
      Array.from({ length: 25 }, () => fetch(`${base}/v1/markets/${market.id}`, { headers: { authorization: `Bearer ${secret}` } })),
    );
    const bodies = await Promise.all(responses.map((response) => response.text()));
    expect(responses.map((response) => response.status)).toEqual(Array(25).fill(200));
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]).id).toBe(market.id);
  });
});
