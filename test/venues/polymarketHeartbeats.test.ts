/**
 * Polymarket's own dead-man's switch through the adapter (PolymarketVenue.heartbeat) against the
 * fake over loopback (fakes/polymarket/heartbeats.ts: `POST /v1/heartbeats {heartbeat_id}`,
 * L2-verified, a chain starting at `""`, each answer naming the next id, a stale id answered 400
 * `Invalid Heartbeat ID` with the id the venue expects, every open order of the key cancelled when
 * no valid beat comes within the timeout). Two adapters of one account stand for two cores.
 */
import { randomUUID } from 'node:crypto';
import { PolymarketVenue } from '../../core/venues/polymarket/polymarketVenue';
import { PolymarketSession } from '../../core/venues/polymarket/session';
import { Chain, polymarketSigning } from '../../core/venues/polymarket/signing';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { eventually } from '../support/kalshiLive';
import { MemoryOrders } from '../support/memoryOrders';
import { newPolymarketTrader, PM_FED as FED, type PolymarketTrader } from '../support/polymarketLive';

let fake: PolymarketFake;
let alice: PolymarketTrader;
const venues: PolymarketVenue[] = [];

beforeEach(async () => {
  alice = newPolymarketTrader('1000');
  fake = await PolymarketFake.start({ accounts: [alice.account] });
});
afterEach(async () => {
  await Promise.all(venues.splice(0).map((v) => v.close()));
  await fake.close();
});

function open(timeoutMs = 10_000): { venue: PolymarketVenue; ours: MemoryOrders } {
  const signing = polymarketSigning({ chain: Chain.AMOY, signatureType: 0, funderAddress: alice.account.funderAddress as `0x${string}`, privateKey: alice.privateKey });
  const session = new PolymarketSession({ baseUrl: fake.baseUrl, signing, timeoutMs, creds: { key: alice.account.apiKey, secret: alice.account.secret, passphrase: alice.account.passphrase } });
  const ours = new MemoryOrders();
  const venue = new PolymarketVenue({ session, ourOrders: ours, markets: { byVenueMarketId: async (id) => (id === FED.venueMarketId ? FED : null), traded: async () => [FED] } });
  venues.push(venue);
  return { venue, ours };
}

const beats = () => fake.requests.filter((r) => r.path === '/v1/heartbeats').map((r) => [r.apiKey, r.status]);

describe('Polymarket heartbeats through the adapter', () => {
  it('chains the rotating id: every beat after the first sends the id the last answer named (no 400 on the way)', async () => {
    const { venue } = open();
    for (let i = 0; i < 4; i += 1) await venue.heartbeat();
    expect(beats()).toEqual(Array(4).fill([alice.account.apiKey, 200]));
  });

  it('two cores beating one account: each finds its id stale after the other beat, restarts from the id the venue expects, and both calls succeed', async () => {
    const core1 = open().venue;
    const core2 = open().venue;
    await core1.heartbeat();
    await core2.heartbeat(); // "" while core1's chain runs: 400 with core1's id, then that id
    await core1.heartbeat(); // its id was used by core2: 400, then the current one
    await core2.heartbeat();
    expect(beats().map(([, status]) => status)).toEqual([200, 400, 200, 400, 200, 400, 200]);
  });

  it('a chain the venue let lapse (every open order cancelled) restarts from "" on the next beat', async () => {
    fake.heartbeats.setTimeout(150);
    const at = open();
    await at.venue.heartbeat();
    const clientOrderId = `order_${randomUUID()}`;
    const req = { clientOrderId, venueMarketId: FED.venueMarketId, side: 'yes' as const, action: 'buy' as const, type: 'limit' as const, price: '0.40', quantity: '5', timeInForce: 'gtc' as const };
    at.ours.records.set(clientOrderId, { ...req, venueOrderId: null, createdAt: new Date() });
    expect(await at.venue.placeOrder(req)).toMatchObject({ outcome: 'accepted', order: { status: 'open' } });
    // No beat within the venue's timeout: the venue cancels everything of the key.
    await eventually('the venue cancelling on a lapsed chain', async () => ((await at.venue.getOrder(clientOrderId))?.status === 'canceled' ? true : undefined));
    fake.heartbeats.setTimeout(10_000);
    await at.venue.heartbeat(); // our id is stale; the venue expects "" again
    await at.venue.heartbeat();
    expect(beats().map(([, status]) => status)).toEqual([200, 400, 200, 200]);
  });

  it('times out like every call, and a failure is thrown to the caller (who logs it)', async () => {
    const { venue } = open(300);
    fake.injectFault({ fault: { kind: 'delay', ms: 800, placeBeforeDelay: false }, method: 'POST', pathPrefix: '/v1/heartbeats' });
    const started = Date.now();
    await expect(venue.heartbeat()).rejects.toMatchObject({ code: 'venue_unavailable' });
    expect(Date.now() - started).toBeLessThan(750);
    // The next beat recovers whatever the lost answer did to the chain.
    fake.clearFaults();
    await expect(venue.heartbeat()).resolves.toBeUndefined();
  });
});
