import { CatalogCache, catalogKey } from '../../gateway/catalogCache';

/** The gateway's catalog cache on its own: one load per entry and lifetime, errors never kept. */
describe('CatalogCache', () => {
  const counting = (body: string) => {
    const load = Object.assign(async () => {
      load.calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return body;
    }, { calls: 0 });
    return load;
  };

  it('loads an entry once for concurrent requests and keeps it for its lifetime', async () => {
    const cache = new CatalogCache(60_000);
    const load = counting('{"id":"mkt_1"}');
    const bodies = await Promise.all(Array.from({ length: 10 }, () => cache.get('k', load)));
    expect(new Set(bodies)).toEqual(new Set(['{"id":"mkt_1"}']));
    expect(load.calls).toBe(1);
    expect(await cache.get('k', load)).toBe('{"id":"mkt_1"}');
    expect(load.calls).toBe(1);
  });

  it('loads again once the lifetime is over', async () => {
    const cache = new CatalogCache(50);
    const load = counting('{}');
    await cache.get('k', load);
    await new Promise((resolve) => setTimeout(resolve, 80));
    await cache.get('k', load);
    expect(load.calls).toBe(2);
  });

  it('keeps no error: every waiter gets it, and the next request loads again', async () => {
    const cache = new CatalogCache(60_000);
    const failure = new Error('core down');
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw failure;
    };
    const results = await Promise.allSettled([cache.get('k', failing), cache.get('k', failing)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toBe(failure);
    expect(calls).toBe(1);
    expect(await cache.get('k', async () => 'now fine')).toBe('now fine');
  });

  it('with a lifetime of 0 keeps nothing', async () => {
    const cache = new CatalogCache(0);
    const load = counting('{}');
    await cache.get('k', load);
    await cache.get('k', load);
    expect(load.calls).toBe(2);
  });

  it('stays within its byte budget, dropping the least recently used', async () => {
    const cache = new CatalogCache(60_000, 1000);
    const big = 'x'.repeat(400);
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => big);
    const load = counting(big);
    await cache.get('a', load); // the oldest was dropped for the third
    expect(load.calls).toBe(1);
    await cache.get('c', load); // the newest is still kept
    expect(load.calls).toBe(1);
  });

  it('keys environments, operations and variables apart, and test workspaces apart (their test-helper markets are their own)', () => {
    const [test1, test2, live1, live2] = [
      { environment: 'test', workspaceId: 'ws_1' }, { environment: 'test', workspaceId: 'ws_2' },
      { environment: 'live', workspaceId: 'ws_1' }, { environment: 'live', workspaceId: 'ws_2' },
    ];
    const keys = new Set([
      catalogKey(test1, 'GetMarket', { id: 'mkt_1' }),
      catalogKey(live1, 'GetMarket', { id: 'mkt_1' }),
      catalogKey(test1, 'GetMarket', { id: 'mkt_2' }),
      catalogKey(test1, 'SearchMarkets', { id: 'mkt_1' }),
      catalogKey(test2, 'GetMarket', { id: 'mkt_1' }),
    ]);
    expect(keys.size).toBe(5);
    // Live answers are one entry for every workspace.
    expect(catalogKey(live2, 'GetMarket', { id: 'mkt_1' })).toBe(catalogKey(live1, 'GetMarket', { id: 'mkt_1' }));
  });
});
