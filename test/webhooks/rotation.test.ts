/**
 * Rotating a webhook endpoint's signing secret and updating an endpoint (docs/webhooks.md), end to
 * end on real loopback HTTP: after a rotation each delivery carries the new secret's signature and
 * the previous one's until that expires, each checked with the documented recipe; a retried
 * rotation answers the same secret; an update sends a failing delivery's next attempt to the new
 * URL; bad input and another workspace's ids change nothing; a KEK rewrap re-seals the previous
 * secret too; no secret is ever answered again, logged or stored in clear.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { parseKeyring } from '../../core/domain/credentialVault';
import { openSigningSecrets, rewrapWebhookSecrets } from '../../core/services/events/webhookEndpoints';
import { call, envelopeOf, ok, type ApiResponse } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { testConfig } from '../support/env';
import { CoreLog } from '../support/retryingClients';
import { startStack, type Stack } from '../support/stack';
import { deleteEveryEndpoint, receiver, verifyWebhook, type Receiver, type Received } from '../support/webhookReceivers';
import { createSubaccount, marketOf, newTrader, placed, waitFor, type Market, type Trader } from '../trading/helpers';

const run = promisify(execFile);

/** Quick retries (100 ms doubling to 1 s apart) kept up for 30 s: a failing delivery stays pending while a test moves it. */
const CONFIG = {
  CREDENTIALS_KEK: randomBytes(32).toString('base64'), WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_WORKER_INTERVAL_MS: '25',
  WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_MAX_DELAY_MS: '1000', WEBHOOK_RETRY_WINDOW_MS: '30000', WEBHOOK_TIMEOUT_MS: '1000',
};

let stack: Stack;
let databaseUrl: string;
let market: Market;
let trader: Trader;
let subaccount: string;
let hooks: Receiver;
const log = new CoreLog();
/** Every secret answered in this suite: none may appear in an answer after its own, a log line or the database in clear. */
const secrets: string[] = [];

beforeAll(async () => {
  databaseUrl = await ownDatabase('webhooks_rotation');
  stack = await startStack(testConfig({ DATABASE_URL: databaseUrl, ...CONFIG }), 'single', 1, { logger: log.logger });
  market = await marketOf(stack.core.db, 'sim_kalshi', 'NYC-SNOW-XMAS');
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Webhook rotation');
  subaccount = await createSubaccount(trader, 'rotation');
  hooks = await receiver((request) => (request.path === '/down' ? 503 : 200));
}, 60_000);
afterAll(async () => {
  await hooks?.close();
  await stack?.close();
});

afterEach(() => deleteEveryEndpoint(trader.base, trader.secret));

const api = (method: string, path: string, body?: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  call(trader.base, method, path, { key: options.key ?? trader.secret, ...(options.headers ? { headers: options.headers } : {}), ...(body !== undefined ? { body } : {}) });

interface EndpointView {
  id: string;
  url: string;
  event_types: string[];
  description: string | null;
  previous_secret_expires_at: string | null;
}
type WithSecret = { endpoint: EndpointView; secret: string };

const shown = (answer: WithSecret) => {
  secrets.push(answer.secret);
  return answer;
};
const register = async (path: string, eventTypes = ['order.accepted']) =>
  shown(ok(await api('POST', '/v1/webhook_endpoints', { url: hooks.url(path), event_types: eventTypes }), 'register'));
const rotate = async (id: string, body?: unknown, headers?: Record<string, string>) =>
  shown(ok(await api('POST', `/v1/webhook_endpoints/${id}/rotate_secret`, body, { headers }), 'rotate'));
const restingBuy = () => placed(trader, { subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' });

/** The delivery of `orderId`'s event at `path` (its first request). */
const deliveryOf = async (path: string, orderId: string): Promise<Received> =>
  (await waitFor(async () => hooks.at(path).filter((r) => JSON.parse(r.body).data.id === orderId), (list) => list.length > 0, 10_000))[0]!;

/** The header's v1 signatures, in order. */
const v1sOf = (request: Received) => String(request.headers['webhook-signature']).split(',').filter((part) => part.startsWith('v1='));

/** Whether one v1 signature alone (with the header's t) verifies with `secret` by the documented recipe. */
const signedWith = (request: Received, v1: string, secret: string) => {
  const t = /t=\d+/.exec(String(request.headers['webhook-signature']))![0];
  return verifyWebhook(secret, `${t},${v1}`, request.body);
};

const expectRefused = (response: ApiResponse, status: number, code: string, param?: string) =>
  expect([response.status, envelopeOf(response).code, envelopeOf(response).param]).toEqual([status, code, param]);

describe('rotating the secret', () => {
  test('after a rotation every delivery is signed with both secrets, one v1 each; once the previous one expires, with the new one alone', async () => {
    const created = await register('/rotating');
    const rotated = await rotate(created.endpoint.id);
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.endpoint).toMatchObject({ id: created.endpoint.id, url: created.endpoint.url, event_types: ['order.accepted'] });
    const expiresIn = Date.parse(rotated.endpoint.previous_secret_expires_at!) - Date.now();
    expect(expiresIn).toBeGreaterThan(86_400_000 - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(86_400_000);

    const during = await deliveryOf('/rotating', (await restingBuy()).id);
    const [fresh, previous] = v1sOf(during);
    expect(v1sOf(during)).toHaveLength(2);
    expect(signedWith(during, fresh!, rotated.secret)).toBe(true);
    expect(signedWith(during, previous!, created.secret)).toBe(true);
    expect(signedWith(during, fresh!, created.secret)).toBe(false);
    // A receiver holding either secret accepts the delivery; one holding neither does not.
    expect(verifyWebhook(rotated.secret, during.headers['webhook-signature'] as string, during.body)).toBe(true);
    expect(verifyWebhook(created.secret, during.headers['webhook-signature'] as string, during.body)).toBe(true);
    expect(verifyWebhook(`whsec_${randomBytes(32).toString('base64url')}`, during.headers['webhook-signature'] as string, during.body)).toBe(false);

    // The previous secret's expiry set back (as if a day had passed): it signs nothing more, and is shown as none.
    await stack.core.db.$executeRaw`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = ${created.endpoint.id}`;
    expect(ok(await api('GET', `/v1/webhook_endpoints/${created.endpoint.id}`), 'get').previous_secret_expires_at).toBeNull();
    const after = await deliveryOf('/rotating', (await restingBuy()).id);
    expect(v1sOf(after)).toHaveLength(1);
    expect(verifyWebhook(rotated.secret, after.headers['webhook-signature'] as string, after.body)).toBe(true);
    expect(verifyWebhook(created.secret, after.headers['webhook-signature'] as string, after.body)).toBe(false);
  });

  test('expire_previous_in_seconds 0: the old secret stops at once; rotating again keeps only the secret just replaced as previous', async () => {
    const created = await register('/at-once');
    const second = await rotate(created.endpoint.id, { expire_previous_in_seconds: 0 });
    expect(second.endpoint.previous_secret_expires_at).toBeNull();
    const request = await deliveryOf('/at-once', (await restingBuy()).id);
    expect(v1sOf(request)).toHaveLength(1);
    expect(verifyWebhook(second.secret, request.headers['webhook-signature'] as string, request.body)).toBe(true);
    expect(verifyWebhook(created.secret, request.headers['webhook-signature'] as string, request.body)).toBe(false);

    // Two rotations in a row: the second's previous is the first's secret; the one before is dropped.
    const third = await rotate(created.endpoint.id, { expire_previous_in_seconds: 600 });
    const fourth = await rotate(created.endpoint.id, { expire_previous_in_seconds: 60 });
    const expiresIn = Date.parse(fourth.endpoint.previous_secret_expires_at!) - Date.now();
    expect(expiresIn).toBeGreaterThan(0);
    expect(expiresIn).toBeLessThanOrEqual(60_000);
    const twice = await deliveryOf('/at-once', (await restingBuy()).id);
    expect(v1sOf(twice).map((v1) => [signedWith(twice, v1, fourth.secret), signedWith(twice, v1, third.secret), signedWith(twice, v1, second.secret)])).toEqual([
      [true, false, false],
      [false, true, false],
    ]);
  });

  test('a retry with the same Idempotency-Key answers the same secret and rotates nothing; another key rotates again', async () => {
    const created = await register('/retried');
    const headers = { 'Idempotency-Key': `rotate-${randomBytes(8).toString('hex')}` };
    const first = await rotate(created.endpoint.id, { expire_previous_in_seconds: 3600 }, headers);
    const retry = await rotate(created.endpoint.id, { expire_previous_in_seconds: 3600 }, headers);
    expect(retry).toEqual(first);
    const request = await deliveryOf('/retried', (await restingBuy()).id);
    expect(v1sOf(request).map((v1) => [signedWith(request, v1, first.secret), signedWith(request, v1, created.secret)])).toEqual([[true, false], [false, true]]);

    const other = await rotate(created.endpoint.id, { expire_previous_in_seconds: 3600 }, { 'Idempotency-Key': `rotate-${randomBytes(8).toString('hex')}` });
    expect(other.secret).not.toBe(first.secret);
    // The first key's rotation is no longer the current secret's: its key now rotates afresh rather than showing an old secret.
    const late = await rotate(created.endpoint.id, { expire_previous_in_seconds: 3600 }, headers);
    expect([other.secret, first.secret]).not.toContain(late.secret);
  });

  test('the same Idempotency-Key with another request is 422 and rotates nothing; once older than the keys are kept, it is a new rotation', async () => {
    const created = await register('/reused');
    const headers = { 'Idempotency-Key': `rotate-${randomBytes(8).toString('hex')}` };
    const first = await rotate(created.endpoint.id, { expire_previous_in_seconds: 3600 }, headers);
    const reused = await api('POST', `/v1/webhook_endpoints/${created.endpoint.id}/rotate_secret`, { expire_previous_in_seconds: 0 }, { headers });
    expect(reused.status).toBe(422);
    expect(envelopeOf(reused)).toMatchObject({ code: 'idempotency_key_reused' });
    expect(await rotate(created.endpoint.id, { expire_previous_in_seconds: 3600 }, headers)).toEqual(first); // still the first rotation's answer
    // A day and more later (the rotation's record moved back), the key names no request any more: a leaked secret is rotated, not shown again.
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      await db.query("UPDATE webhook_endpoints SET secret_rotation_key = regexp_replace(secret_rotation_key, ':[0-9]+$', ':' || (extract(epoch FROM now() - interval '25 hours') * 1000)::bigint) WHERE id = $1", [created.endpoint.id]);
    } finally {
      await db.end();
    }
    const later = await rotate(created.endpoint.id, { expire_previous_in_seconds: 0 }, headers);
    expect(later.secret).not.toBe(first.secret);
  });

  test('the new secret is never shown again: not by GET, the list or the deliveries', async () => {
    const created = await register('/never-again');
    const rotated = await rotate(created.endpoint.id);
    await deliveryOf('/never-again', (await restingBuy()).id);
    for (const path of [`/v1/webhook_endpoints/${created.endpoint.id}`, '/v1/webhook_endpoints', `/v1/webhook_endpoints/${created.endpoint.id}/deliveries`]) {
      const response = await api('GET', path);
      expect(response.status).toBe(200);
      expect(JSON.stringify(response.body)).not.toMatch(/whsec_|"secret"/);
    }
    expect(ok(await api('GET', `/v1/webhook_endpoints/${created.endpoint.id}`), 'get')).toEqual(rotated.endpoint);
  });
});

describe('updating an endpoint', () => {
  test('a new URL takes a failing delivery from its next attempt on; the secret and the delivery history stay', async () => {
    const { endpoint, secret } = await register('/down');
    const order = await restingBuy();
    await waitFor(() => deliveriesOf(endpoint.id), (list) => list[0]?.status === 'pending' && list[0].attempts.length >= 1);
    const updated = ok(await api('PUT', `/v1/webhook_endpoints/${endpoint.id}`, { url: hooks.url('/new-home') }), 'update');
    expect(updated).toMatchObject({ id: endpoint.id, url: hooks.url('/new-home'), event_types: ['order.accepted'] });

    const moved = await deliveryOf('/new-home', order.id);
    expect(verifyWebhook(secret, moved.headers['webhook-signature'] as string, moved.body)).toBe(true);
    const [delivery] = await waitFor(() => deliveriesOf(endpoint.id), (list) => list[0]?.status === 'succeeded', 10_000);
    expect(delivery!.attempts.at(-1)!.http_status).toBe(200);
    expect(delivery!.attempts.slice(0, -1).every((a) => a.http_status === 503)).toBe(true); // the attempts at the old URL stay on record
    expect(Number(moved.headers['webhook-attempt'])).toBe(delivery!.attempt_count);
    const atOld = hooks.at('/down').filter((r) => JSON.parse(r.body).data.id === order.id).length;
    expect(atOld).toBe(delivery!.attempt_count - 1);
  });

  test('event types and description change for the events after the update; fields left out keep their value', async () => {
    const { endpoint } = await register('/retyped', ['order.canceled']);
    const updated = ok(await api('PUT', `/v1/webhook_endpoints/${endpoint.id}`, { event_types: ['order.accepted'], description: 'desk A' }), 'update');
    expect(updated).toMatchObject({ url: hooks.url('/retyped'), event_types: ['order.accepted'], description: 'desk A' });
    const order = await restingBuy();
    expect(JSON.parse((await deliveryOf('/retyped', order.id)).body).type).toBe('order.accepted');
    const cleared = ok(await api('PUT', `/v1/webhook_endpoints/${endpoint.id}`, { description: null }), 'clear the description');
    expect(cleared).toMatchObject({ url: hooks.url('/retyped'), event_types: ['order.accepted'], description: null });
    expect(ok(await api('PUT', `/v1/webhook_endpoints/${endpoint.id}`, {}), 'change nothing')).toEqual(cleared);
  });
});

interface DeliveryView {
  status: string;
  attempt_count: number;
  attempts: { number: number; http_status: number | null }[];
}
const deliveriesOf = async (endpointId: string): Promise<DeliveryView[]> => ok(await api('GET', `/v1/webhook_endpoints/${endpointId}/deliveries`), 'deliveries').data;

describe('refusals change nothing', () => {
  /** The endpoint's row as stored, sealed secrets included: compared before and after each refusal. */
  const stored = (id: string) => stack.core.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });

  test('bad input is 400 invalid_request naming the field', async () => {
    const { endpoint } = await register('/kept');
    const before = await stored(endpoint.id);
    const updates: [unknown, string][] = [
      [{ url: 'ftp://example.com/hook' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'https://user:pw@example.com/hook' }, 'url'],
      [{ url: 'https://example.com/hook#frag' }, 'url'],
      [{ url: null }, 'url'],
      [{ event_types: ['order.exploded'] }, 'event_types'],
      [{ event_types: [] }, 'event_types'],
      [{ description: 'x'.repeat(501) }, 'description'],
      [{ secret: 'mine' }, 'secret'],
    ];
    for (const [body, param] of updates) expectRefused(await api('PUT', `/v1/webhook_endpoints/${endpoint.id}`, body), 400, 'invalid_request', param);
    for (const expire of [-1, 604_801, 1.5, '60', null]) {
      expectRefused(await api('POST', `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { expire_previous_in_seconds: expire }), 400, 'invalid_request', 'expire_previous_in_seconds');
    }
    expect(await stored(endpoint.id)).toEqual(before);
    // The bounds themselves are taken.
    expect((await rotate(endpoint.id, { expire_previous_in_seconds: 604_800 })).endpoint.previous_secret_expires_at).not.toBeNull();
  });

  test("another workspace's endpoint id answers 404 not_found to an update or a rotation", async () => {
    const { endpoint } = await register('/mine');
    const before = await stored(endpoint.id);
    const stranger = await newTrader(stack.core.db, trader.base, 'Rotation stranger');
    for (const [method, path, body] of [
      ['PUT', `/v1/webhook_endpoints/${endpoint.id}`, { url: 'https://example.com/stolen' }],
      ['POST', `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, {}],
      ['POST', `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, undefined],
    ] as const) {
      expectRefused(await api(method, path, body, { key: stranger.secret }), 404, 'not_found');
    }
    expectRefused(await api('POST', '/v1/webhook_endpoints/whe_01jzzzzzzzzzzzzzzzzzzzzzzz/rotate_secret'), 404, 'not_found');
    expect(await stored(endpoint.id)).toEqual(before);
  });
});

describe('key-encryption key rotation', () => {
  test('credentials rewrap re-seals a previous secret that still signs with the current one, and clears one that expired', async () => {
    const signing = await register('/rewrap-signing');
    const signingNew = await rotate(signing.endpoint.id);
    const expired = await register('/rewrap-expired');
    await rotate(expired.endpoint.id);
    await stack.core.db.$executeRaw`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = ${expired.endpoint.id}`;

    const newKek = randomBytes(32).toString('base64');
    const { rewrapped } = await rewrapWebhookSecrets(stack.core.db, parseKeyring({ CREDENTIALS_KEK: newKek, CREDENTIALS_KEK_ID: 'kek-new', CREDENTIALS_OLD_KEKS: `kek1:${CONFIG.CREDENTIALS_KEK}` }));
    expect(rewrapped).toBeGreaterThanOrEqual(2);
    const onlyNew = parseKeyring({ CREDENTIALS_KEK: newKek, CREDENTIALS_KEK_ID: 'kek-new' });
    const row = await stack.core.db.webhookEndpoint.findUniqueOrThrow({ where: { id: signing.endpoint.id } });
    expect(row.kekId).toBe('kek-new');
    expect(openSigningSecrets(onlyNew, row, new Date())).toEqual([signingNew.secret, signing.secret]);
    expect(await stack.core.db.webhookEndpoint.findUniqueOrThrow({ where: { id: expired.endpoint.id } })).toMatchObject({ kekId: 'kek-new', previousSecretCiphertext: null, previousSecretExpiresAt: null });
  });
});

describe('secrets at rest and in logs', () => {
  test('no secret answered in this suite is in the logs, or in the database in clear (sealed, previous ones included)', async () => {
    const created = await register('/at-rest');
    await rotate(created.endpoint.id, undefined, { 'Idempotency-Key': `at-rest-${randomBytes(8).toString('hex')}` });
    expect(secrets.length).toBeGreaterThan(10);
    const lines = JSON.stringify(log.linesStartingWith(''));
    expect(lines).toContain('rotate_secret'); // the access log was captured
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query("SELECT count(*)::int AS n FROM webhook_endpoints WHERE previous_secret_ciphertext IS NOT NULL");
      expect(rows[0].n).toBeGreaterThan(0);
    } finally {
      await db.end();
    }
    const { stdout } = await run('/usr/bin/pg_dump', ['--data-only', '--no-password', `--dbname=${databaseUrl}`], { maxBuffer: 1024 * 1024 * 1024 });
    expect(stdout).toContain(created.endpoint.id);
    for (const secret of secrets) {
      expect(lines).not.toContain(secret.slice(6));
      expect(stdout).not.toContain(secret.slice(6));
    }
  });
});
