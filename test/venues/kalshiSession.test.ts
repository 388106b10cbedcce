/**
 * The per-credential Kalshi HTTP session (core/venues/kalshi/session.ts) against the faithful fake
 * over loopback: signed calls, one signer per credential, demo and production apart, client-side
 * token buckets, 429 backoff, lost answers reported as `unknown` (never re-sent), and Kalshi's
 * errors mapped to ours. Keys are made at run time; timeouts are small so each test is quick.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../core/config';
import { readKalshiError } from '../../core/venues/kalshi/errors';
import { KalshiSession, kalshiSessionForCredential, type KalshiOutcome } from '../../core/venues/kalshi/session';
import { createKalshiSigner } from '../../core/venues/kalshi/signing';
import { KALSHI_RATE_TIERS, type KalshiRateTier } from '../../core/venues/kalshi/tokenBuckets';
import { KalshiFake } from '../../fakes/kalshi/server';
import { v2OrderBody } from '../support/kalshiOrders';
import { newKalshiKey, type KalshiKey } from '../support/kalshiKeys';
import { closedPort } from '../support/http';

const MARKET = 'KXFAKEFED-26DEC-T4.00';
const CREATE = '/portfolio/events/orders';
const CREATE_PATH = `/trade-api/v2${CREATE}`;
const FAST_BACKOFF = { baseMs: 10, maxMs: 40, maxAttempts: 8 };

const alice = newKalshiKey();
const bob = newKalshiKey();

const fakes: KalshiFake[] = [];
const sessions: KalshiSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function startFake(options: Parameters<typeof KalshiFake.start>[0] = {}): Promise<KalshiFake> {
  const fake = await KalshiFake.start({
    accounts: [
      { userId: 'user-alice', balanceDollars: '1000.00', keys: [alice] },
      { userId: 'user-bob', balanceDollars: '250.00', keys: [bob] },
      { userId: 'user-maker', balanceDollars: '100000.00' },
    ],
    ...options,
  });
  fakes.push(fake);
  return fake;
}

function session(restUrl: string, key: KalshiKey, options: { timeoutMs?: number; tier?: KalshiRateTier } = {}): KalshiSession {
  const made = new KalshiSession({
    restUrl,
    signer: createKalshiSigner(key.keyId, key.privateKey),
    tier: options.tier ?? KALSHI_RATE_TIERS.basic,
    timeoutMs: options.timeoutMs ?? 2000,
    backoff: FAST_BACKOFF,
  });
  sessions.push(made);
  return made;
}

/** A small resting bid with a client order id of its own. */
function order(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return v2OrderBody(MARKET, { count: '1.00', price: '0.0100', client_order_id: randomUUID(), ...overrides });
}

const create = (s: KalshiSession, body: Record<string, unknown>) => s.request<{ order_id: string }>('POST', CREATE, { kind: 'write', body });
const balance = (s: KalshiSession) => s.request<{ balance_dollars: string }>('GET', '/portfolio/balance', { kind: 'read' });

function refusal(outcome: KalshiOutcome) {
  if (outcome.kind !== 'refused') throw new Error(`expected a refusal, got ${JSON.stringify(outcome)}`);
  return { status: outcome.status, venueCode: outcome.venueCode, code: outcome.error.code, message: outcome.error.message };
}

const ordersWithClientId = (fake: KalshiFake, id: unknown) => fake.exchange.allOrders().filter((o) => o.clientOrderId === id);

describe('the Kalshi session: signed calls, one per credential', () => {
  it('signs reads the fake accepts, leaving the query out of the signature', async () => {
    const fake = await startFake();
    const s = session(fake.baseUrl, alice);
    await expect(balance(s)).resolves.toMatchObject({ kind: 'answered', status: 200, body: { balance_dollars: '1000.0000' }, attempts: 1 });
    const listed = await s.request<{ orders: unknown[] }>('GET', '/portfolio/orders', { kind: 'read', query: { ticker: MARKET, status: 'resting', limit: 5 } });
    expect(listed).toMatchObject({ kind: 'answered', body: { orders: [] } });
    expect(fake.requestsSignedBy(alice.keyId).map((r) => [r.path, r.query, r.status])).toEqual([
      ['/trade-api/v2/portfolio/balance', '', 200],
      ['/trade-api/v2/portfolio/orders', `?ticker=${encodeURIComponent(MARKET)}&status=resting&limit=5`, 200],
    ]);
  });

  it("two credentials' sessions, used concurrently, each sign with their own key", async () => {
    const fake = await startFake();
    const first = session(fake.baseUrl, alice);
    const second = session(fake.baseUrl, bob);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => balance(i % 2 === 0 ? first : second)));
    answers.forEach((answer, i) => expect(answer).toMatchObject({ kind: 'answered', body: { balance_dollars: i % 2 === 0 ? '1000.0000' : '250.0000' } }));
    for (const key of [alice, bob]) {
      const signed = fake.requestsSignedBy(key.keyId);
      expect(signed).toHaveLength(5);
      expect(signed.every((r) => r.claimedKeyId === key.keyId && r.status === 200)).toBe(true);
    }
    expect(fake.requests.filter((r) => r.status === 401)).toEqual([]);
  });

  it('a demo credential goes to the demo URL and a production credential to the production URL', async () => {
    const demoKey = newKalshiKey();
    const productionKey = newKalshiKey();
    const demo = await startFake({ environment: 'demo', accounts: [{ userId: 'demo-user', balanceDollars: '10.00', keys: [demoKey] }] });
    const production = await startFake({ environment: 'production', accounts: [{ userId: 'prod-user', balanceDollars: '20.00', keys: [productionKey] }] });
    const config = loadConfig({ KALSHI_DEMO_URL: demo.baseUrl, KALSHI_PRODUCTION_URL: production.baseUrl, KALSHI_TIMEOUT_MS: '2000' });
    const open = (key: KalshiKey, environment: 'demo' | 'production') => {
      const made = kalshiSessionForCredential(config, { key_id: key.keyId, private_key: key.privateKeyPem, environment });
      sessions.push(made);
      return made;
    };
    await expect(balance(open(demoKey, 'demo'))).resolves.toMatchObject({ kind: 'answered', body: { balance_dollars: '10.0000' } });
    await expect(balance(open(productionKey, 'production'))).resolves.toMatchObject({ kind: 'answered', body: { balance_dollars: '20.0000' } });
    expect(demo.requests.map((r) => r.claimedKeyId)).toEqual([demoKey.keyId]);
    expect(production.requests.map((r) => r.claimedKeyId)).toEqual([productionKey.keyId]);
    // A demo key sent to production would not be known there: the environment decides, not the caller.
    expect(() => kalshiSessionForCredential(config, { key_id: demoKey.keyId, private_key: demoKey.privateKeyPem })).toThrow(
      expect.objectContaining({ code: 'venue_unavailable' }),
    );
  });
});

describe('the Kalshi session: rate limits', () => {
  it('spaces a burst larger than the tier so the fake at the same tier never answers 429; an unthrottled client would get 429s', async () => {
    const fake = await startFake({ rateTier: KALSHI_RATE_TIERS.basic });
    // Basic: 200 read tokens/s, 10 per call: 20 calls fill the bucket; 40 at once is twice the tier.
    const paced = session(fake.baseUrl, alice, { tier: KALSHI_RATE_TIERS.basic });
    const answers = await Promise.all(Array.from({ length: 40 }, () => balance(paced)));
    expect(answers.every((a) => a.kind === 'answered' && a.attempts === 1)).toBe(true);
    expect(fake.requestsSignedBy(alice.keyId).filter((r) => r.status === 429)).toEqual([]);
    expect(fake.requestsSignedBy(alice.keyId)).toHaveLength(40);

    // The same burst from a session that believes it has a larger tier: the fake refuses some.
    const unpaced = session(fake.baseUrl, bob, { tier: KALSHI_RATE_TIERS.premier });
    await Promise.all(Array.from({ length: 40 }, () => balance(unpaced)));
    expect(fake.requestsSignedBy(bob.keyId).filter((r) => r.status === 429).length).toBeGreaterThan(0);
  });

  it('backs off a 429 storm and the read succeeds once it ends, with no 5xx surfaced', async () => {
    const fake = await startFake();
    const s = session(fake.baseUrl, alice);
    fake.injectFault({ fault: { kind: 'rate_limit' }, method: 'GET', pathPrefix: '/trade-api/v2/portfolio/balance', times: 4 });
    const answer = await balance(s);
    expect(answer).toMatchObject({ kind: 'answered', attempts: 5, body: { balance_dollars: '1000.0000' } });
    expect(fake.requestsSignedBy(alice.keyId).map((r) => r.status)).toEqual([429, 429, 429, 429, 200]);
  });

  it('retries a create refused by 429 with the same client_order_id (placed once), but not a create without one', async () => {
    const fake = await startFake();
    const s = session(fake.baseUrl, alice);
    fake.injectFault({ fault: { kind: 'rate_limit' }, method: 'POST', pathPrefix: CREATE_PATH, times: 2 });
    const body = order();
    expect(await create(s, body)).toMatchObject({ kind: 'answered', status: 201, attempts: 3 });
    expect(ordersWithClientId(fake, body.client_order_id)).toHaveLength(1);

    fake.injectFault({ fault: { kind: 'rate_limit' }, method: 'POST', pathPrefix: CREATE_PATH, times: 1 });
    const anonymous = await create(s, order({ client_order_id: undefined }));
    expect(anonymous).toMatchObject({ kind: 'refused', status: 429, venueCode: 'too_many_requests', attempts: 1, error: { code: 'rate_limited', retryAfterSeconds: 1 } });
  });

  it('refuses, unsent, a call that would wait for tokens longer than its bound', async () => {
    const fake = await startFake();
    const tiny = new KalshiSession({
      restUrl: fake.baseUrl,
      signer: createKalshiSigner(alice.keyId, alice.privateKey),
      tier: { name: 'tiny', readPerSecond: 20, writePerSecond: 20 },
      timeoutMs: 1000,
      // Far below the second call's wait (about 112 ms): it is refused unless the machine stalls for
      // over 110 ms between two calls made at once (a bound of 100 ms left a margin of 12 ms, which a
      // loaded CI machine crossed once).
      maxRateWaitMs: 1,
    });
    sessions.push(tiny);
    const outcomes = await Promise.all([balance(tiny), balance(tiny), balance(tiny)]);
    expect(outcomes.map((o) => o.kind)).toEqual(['answered', 'unavailable', 'unavailable']);
    // 10 tokens of a bucket of 18 refilled at 18/s: the second call is 2 tokens, about 112 ms, away.
    expect(outcomes[1]).toMatchObject({ reason: 'rate_wait_exceeded', attempts: 0, error: { code: 'rate_limited', retryAfterSeconds: 1 } });
    // At most that: less if the clock moved on meanwhile (a loaded machine), never nothing.
    expect((outcomes[1] as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    expect((outcomes[1] as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(112);
    expect(fake.requestsSignedBy(alice.keyId)).toHaveLength(1);
  });
});

describe('the Kalshi session: a caller\u2019s deadline', () => {
  /** A session whose backoff is its ceiling (no jitter): 200 ms, then 400 ms, ... */
  function patient(restUrl: string): KalshiSession {
    const made = new KalshiSession({
      restUrl,
      signer: createKalshiSigner(alice.keyId, alice.privateKey),
      tier: KALSHI_RATE_TIERS.basic,
      timeoutMs: 5000,
      backoff: { baseMs: 200, maxMs: 2000, maxAttempts: 6 },
      random: () => 1,
    });
    sessions.push(made);
    return made;
  }
  const createBy = (s: KalshiSession, body: Record<string, unknown>, deadline: number) => s.request('POST', CREATE, { kind: 'write', body, deadline });

  it('backs off a 429 storm only while an answer could still come in time, then refuses it as rate_limited, unsent', async () => {
    const fake = await startFake();
    fake.injectFault({ fault: { kind: 'rate_limit' }, method: 'POST', pathPrefix: CREATE_PATH, times: Infinity });
    const body = order();
    // 700 ms: the first 429, a 200 ms backoff, the second 429; a 400 ms backoff would leave less than the 250 ms a send is given.
    const outcome = await createBy(patient(fake.baseUrl), body, Date.now() + 700);
    expect(outcome).toMatchObject({ kind: 'refused', status: 429, attempts: 2, error: { code: 'rate_limited' } });
    expect(fake.requestsSignedBy(alice.keyId).map((r) => r.status)).toEqual([429, 429]);
    expect(ordersWithClientId(fake, body.client_order_id)).toEqual([]);
  });

  it('gives up a create whose answer would come after the deadline: unknown (Kalshi placed it), long before its own timeout', async () => {
    const fake = await startFake();
    fake.injectFault({ fault: { kind: 'delay', ms: 3000, placeBeforeDelay: true }, method: 'POST', pathPrefix: CREATE_PATH });
    const body = order();
    const outcome = await createBy(patient(fake.baseUrl), body, Date.now() + 400);
    expect(outcome).toMatchObject({ kind: 'unknown', reason: 'timeout', attempts: 1 });
    expect(ordersWithClientId(fake, body.client_order_id)).toHaveLength(1);
  });

  it('sends nothing when less time is left than a send is given', async () => {
    const fake = await startFake();
    const outcome = await createBy(patient(fake.baseUrl), order(), Date.now() + 100);
    expect(outcome).toMatchObject({ kind: 'unavailable', reason: 'deadline', attempts: 0, error: { code: 'venue_unavailable' } });
    expect(fake.requestsSignedBy(alice.keyId)).toEqual([]);
  });
});

describe('the Kalshi session: lost answers', () => {
  it('a create whose answer is delayed past the timeout is a timely unknown, sent once; a read is a timeout error', async () => {
    const fake = await startFake();
    const s = session(fake.baseUrl, alice, { timeoutMs: 150 });
    fake.injectFault({ fault: { kind: 'delay', ms: 600, placeBeforeDelay: true }, method: 'POST', pathPrefix: CREATE_PATH });
    const body = order();
    const started = Date.now();
    const outcome = await create(s, body);
    expect(Date.now() - started).toBeLessThan(600); // answered by the timeout, not by the venue's delayed answer
    expect(outcome).toMatchObject({ kind: 'unknown', reason: 'timeout', attempts: 1, error: { code: 'venue_unavailable' } });
    expect(ordersWithClientId(fake, body.client_order_id)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(fake.requestsSignedBy(alice.keyId).filter((r) => r.method === 'POST')).toHaveLength(1);

    fake.injectFault({ fault: { kind: 'delay', ms: 600, placeBeforeDelay: false }, method: 'GET', pathPrefix: '/trade-api/v2/portfolio/balance' });
    const readStarted = Date.now();
    const read = await balance(s);
    expect(Date.now() - readStarted).toBeLessThan(600);
    expect(read).toMatchObject({ kind: 'unavailable', reason: 'timeout', error: { code: 'venue_unavailable' } });
  });

  it('a create whose connection is dropped after the venue accepted it is unknown, and not re-sent', async () => {
    const fake = await startFake();
    const s = session(fake.baseUrl, alice);
    fake.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'POST', pathPrefix: CREATE_PATH });
    const body = order();
    expect(await create(s, body)).toMatchObject({ kind: 'unknown', reason: 'connection_lost', attempts: 1 });
    expect(ordersWithClientId(fake, body.client_order_id)).toHaveLength(1);
    expect(fake.requestsSignedBy(alice.keyId).map((r) => [r.method, r.status])).toEqual([['POST', 'dropped']]);
    // The session is still usable afterwards.
    expect(await balance(s)).toMatchObject({ kind: 'answered' });
  });

  it('a 5xx to a create is unknown, to a read unavailable; a venue that cannot be reached is unavailable, not unknown', async () => {
    const fake = await startFake();
    const s = session(fake.baseUrl, alice);
    fake.injectFault({ fault: { kind: 'server_error', status: 503 }, times: 2 });
    expect(await create(s, order())).toMatchObject({ kind: 'unknown', reason: 'server_error', attempts: 1 });
    expect(await balance(s)).toMatchObject({ kind: 'unavailable', reason: 'server_error' });

    const port = await closedPort();
    const nowhere = session(`http://127.0.0.1:${port}/trade-api/v2`, alice, { timeoutMs: 500 });
    expect(await create(nowhere, order())).toMatchObject({ kind: 'unavailable', reason: 'not_connected', error: { code: 'venue_unavailable' } });
  });
});

describe("the Kalshi session: Kalshi's errors as ours", () => {
  it('maps the documented codes, keeping the venue code in the message', async () => {
    const fake = await startFake();
    const s = session(fake.baseUrl, alice);
    const body = order();
    expect(await create(s, body)).toMatchObject({ kind: 'answered', status: 201 });
    expect(refusal(await create(s, body))).toMatchObject({ status: 409, venueCode: 'order_already_exists', code: 'conflict' });

    fake.placeOrderAs('user-maker', order({ side: 'ask', price: '0.5500', count: '3.00' }));
    const fok = refusal(await create(s, order({ price: '0.5600', count: '5.00', time_in_force: 'fill_or_kill' })));
    expect(fok).toMatchObject({ status: 409, venueCode: 'fill_or_kill_insufficient_resting_volume', code: 'venue_error' });
    expect(fok.message).toContain("'fill_or_kill_insufficient_resting_volume'");

    expect(refusal(await create(s, order({ count: '5000.00', price: '0.9900' })))).toMatchObject({ status: 400, venueCode: 'insufficient_balance', code: 'insufficient_funds' });
    expect(refusal(await create(s, order({ price: '0.5150' })))).toMatchObject({ status: 400, venueCode: 'invalid_price', code: 'venue_error' });
    const flat = refusal(await create(s, order({ count: 1 })));
    expect(flat).toMatchObject({ status: 400, venueCode: 'bad_request', code: 'venue_error' });
    expect(flat.message).toContain('cannot unmarshal number');
    expect(refusal(await s.request('DELETE', `${CREATE}/${randomUUID()}`, { kind: 'write', cost: 2 }))).toMatchObject({ status: 404, venueCode: 'not_found', code: 'not_found' });
    expect(refusal(await s.request('POST', '/portfolio/orders', { kind: 'write', cost: 20, body: {} }))).toMatchObject({
      status: 410,
      venueCode: 'deprecated_v1_order_endpoint',
      code: 'venue_error',
    });
  });

  it('an authentication refusal names Kalshi\u2019s code, never a header, signature or key', async () => {
    const fake = await startFake();
    const crossed = new KalshiSession({ restUrl: fake.baseUrl, signer: createKalshiSigner(alice.keyId, bob.privateKey), tier: KALSHI_RATE_TIERS.basic, timeoutMs: 2000 });
    sessions.push(crossed);
    const outcome = await balance(crossed);
    expect(refusal(outcome)).toMatchObject({ status: 401, venueCode: 'authentication_error', code: 'venue_error' });
    const shown = JSON.stringify(outcome) + (outcome.kind === 'refused' ? outcome.error.message + String(outcome.error.stack) : '');
    expect(shown).toContain('INCORRECT_API_KEY_SIGNATURE');
    for (const secret of ['KALSHI-ACCESS', 'PRIVATE KEY', bob.privateKeyPem.split('\n')[1]!]) expect(shown).not.toContain(secret);
  });

  it("reads each of Kalshi's error shapes", () => {
    expect(readKalshiError(409, { error: { code: 'order_already_exists', message: 'order already exists', service: 'exchange' } })).toEqual({
      code: 'order_already_exists',
      message: 'order already exists',
      details: undefined,
    });
    expect(readKalshiError(400, { code: 'bad_request', message: 'bad request', details: 'x' })).toEqual({ code: 'bad_request', message: 'bad request', details: 'x' });
    expect(readKalshiError(400, { msg: 'limit must be <= 1000' })).toEqual({ code: 'http_400', message: 'limit must be <= 1000' });
    expect(readKalshiError(429, { error: 'too many requests' })).toEqual({ code: 'too_many_requests', message: 'too many requests' });
    expect(readKalshiError(502, undefined)).toEqual({ code: 'http_502', message: '' });
  });
});
