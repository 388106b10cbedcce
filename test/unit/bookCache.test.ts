import { BookCache } from '../../gateway/bookCache';

const deferred = () => {
  let resolve!: (body: string) => void;
  const promise = new Promise<string>((r) => (resolve = r));
  return { promise, resolve };
};

describe('BookCache', () => {
  it('keeps an answer until its market’s notice; other markets’ answers stay', async () => {
    const cache = new BookCache(60_000);
    let reads = 0;
    const load = (body: string) => async () => `${body}#${++reads}`;
    expect(await cache.get('mkt_a', 'a:10', load('a'))).toBe('a#1');
    expect(await cache.get('mkt_a', 'a:10', load('a'))).toBe('a#1');
    expect(await cache.get('mkt_b', 'b:10', load('b'))).toBe('b#2');
    cache.invalidate('mkt_a');
    expect(await cache.get('mkt_a', 'a:10', load('a'))).toBe('a#3');
    expect(await cache.get('mkt_b', 'b:10', load('b'))).toBe('b#2');
  });

  it('never keeps a read that began before a notice, nor serves it to a request after the notice', async () => {
    const cache = new BookCache(60_000);
    const before = deferred();
    const first = cache.get('mkt_a', 'a:10', () => before.promise);
    cache.invalidate('mkt_a'); // the book moved while the first read was under way
    const after = cache.get('mkt_a', 'a:10', async () => 'after');
    before.resolve('before');
    expect(await first).toBe('before'); // its own caller gets what it read
    expect(await after).toBe('after');
    expect(await cache.get('mkt_a', 'a:10', async () => 'again')).toBe('after');
  });

  it('shares one read between concurrent misses, keeps no error, and forgets after its age', async () => {
    let now = 1_000;
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const cache = new BookCache(1_000);
      let reads = 0;
      const slow = deferred();
      const load = () => {
        reads += 1;
        return slow.promise;
      };
      const both = Promise.all([cache.get('m', 'k', load), cache.get('m', 'k', load)]);
      slow.resolve('one');
      expect(await both).toEqual(['one', 'one']);
      expect(reads).toBe(1);
      await expect(cache.get('n', 'e', async () => Promise.reject(new Error('venue away')))).rejects.toThrow('venue away');
      expect(await cache.get('n', 'e', async () => 'fine')).toBe('fine');
      now += 1_000;
      expect(await cache.get('m', 'k', async () => 'fresh')).toBe('fresh');
    } finally {
      Date.now = realNow;
    }
  });
});
