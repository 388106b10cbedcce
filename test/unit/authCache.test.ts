import type { RevocationBus } from '../../contract/revocationBus';
import { AuthCache } from '../../gateway/authCache';

/** A revocation bus whose subscription the test loses and finds again. */
function controllableBus() {
  const listeners: ((keyId: string) => void)[] = [];
  let stretch: number | undefined = 1;
  const bus: RevocationBus = {
    shared: true,
    publish: async (keyId) => listeners.forEach((l) => l(keyId)),
    subscribe: (listener) => void listeners.push(listener),
    ready: async () => undefined,
    hearingSince: () => stretch,
    close: async () => undefined,
  };
  return {
    bus,
    lose: () => void (stretch = undefined),
    findAgain: (next: number) => void (stretch = next),
  };
}

describe('AuthCache: revocations fail closed', () => {
  it('serves what it keeps while the bus is heard, and forgets a key the bus revokes', async () => {
    const { bus } = controllableBus();
    const cache = new AuthCache<{ id: string }>(60_000, bus);
    cache.set('h1', { id: 'key_1' });
    expect(cache.get('h1')).toEqual({ id: 'key_1' });
    await bus.publish('key_1');
    expect(cache.get('h1')).toBeUndefined();
  });

  it('keeps nothing while the bus is lost', () => {
    const control = controllableBus();
    const cache = new AuthCache<{ id: string }>(60_000, control.bus);
    cache.set('h1', { id: 'key_1' });
    control.lose();
    expect(cache.get('h1')).toBeUndefined();
    cache.set('h2', { id: 'key_2' });
    expect(cache.get('h2')).toBeUndefined();
  });

  it('does not serve after the bus comes back what it kept before the loss, even if nothing was read meanwhile', () => {
    const control = controllableBus();
    const cache = new AuthCache<{ id: string }>(60_000, control.bus);
    cache.set('h1', { id: 'key_1' });
    control.lose();
    control.findAgain(2); // a revocation sent during the loss passed this gateway by
    expect(cache.get('h1')).toBeUndefined();
    cache.set('h1', { id: 'key_1' });
    expect(cache.get('h1')).toEqual({ id: 'key_1' });
  });
});
