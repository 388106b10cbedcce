/**
 * The Polymarket wallet key never appears (issue 14's acceptance: "the Polymarket private key never
 * appears in logs, responses or pg_dump"), end to end with real processes: a core (`npm run
 * start:core`) and a gateway (`npm run start:gateway`) from the compiled dist/, both logging at
 * `trace`, on a database of this suite's own, trading live on the Polymarket CLOB V2 fake
 * (docs/polymarket-fake.md) in this process; and the operator's CLI rewrapping the credentials
 * under a new KEK.
 *
 * Two wallets are attached through the dashboard route: one with its key and API credentials (key,
 * secret, passphrase), one with its key only (the core derives its API credentials with L1 auth).
 * Both trade: an order rests and is canceled, one fills against another participant, one's answer is
 * lost and reconciled, a market FOK is killed by the venue, one is refused by our validation; the
 * subaccount (its credentials), orders, fills, positions and the portfolio are read, and a malformed attach
 * carrying the real key is refused. Then every process's whole output, every answer (status,
 * headers and body) and a full `pg_dump` (schema and data) of the database are searched for each
 * wallet key (hex with and without 0x, any case; its bytes in base64 and base64url; the text in the
 * encodings of test/support/kalshiLive.ts) and for both API secrets and passphrases. Controls show
 * that each haystack is real: the dump holds the credential rows (signer addresses, sealed blobs),
 * the logs the requests, the answers the orders.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { INTERNAL_SECRET } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, ok, type ApiResponse } from '../support/http';
import { encodings, eventually, newKek } from '../support/kalshiLive';
import { ownDatabase } from '../support/ownDatabase';
import { clobMaker } from '../support/polymarketClob';
import { insertLivePolymarketMarket, newPolymarketTrader, PM_FED, type PolymarketTrader } from '../support/polymarketLive';
import { runProcess, startProcess, type ProcessOutcome, type ServiceProcess } from '../support/processes';

const run = promisify(execFile);
const withCreds = newPolymarketTrader(); // attached with key, secret and passphrase (registered at the fake up front)
const keyOnly = newPolymarketTrader(); // attached with its key only: API credentials derived by the core
const maker = clobMaker();
const KEK = newKek();

let url: string;
let db: Db;
let clob: PolymarketFake;
let core: ServiceProcess;
let gateway: ServiceProcess;
const answers: ApiResponse[] = [];
const cliRuns: ProcessOutcome[] = [];

/** A request through the gateway process; its whole answer is kept for the search. */
async function api(method: string, path: string, options: { key: string; body?: unknown; headers?: Record<string, string> }): Promise<ApiResponse> {
  const response = await call(gateway.url, method, path, options);
  answers.push(response);
  return response;
}

/** Every way a wallet key could be written out: hex with and without 0x (searched case-insensitively), its 32 bytes in base64 and base64url, the text's encodings. */
function keyForms(trader: PolymarketTrader): string[] {
  const hex = trader.privateKey.slice(2);
  const bytes = Buffer.from(hex, 'hex');
  return [...new Set([trader.privateKey, hex, bytes.toString('base64'), bytes.toString('base64url'), ...encodings(trader.privateKey), ...encodings(hex)])];
}

beforeAll(async () => {
  url = await ownDatabase('polymarket_key_at_rest');
  db = createPrismaClient(url, 2);
  clob = await PolymarketFake.start({ accounts: [maker.account, withCreds.account] });
  clob.exchange.wallets.seedCollateral(keyOnly.address, '1000');
  core = await startProcess('bin/startCore.ts', {
    DATABASE_URL: url,
    CORE_PORT: '0',
    INTERNAL_TOKEN: INTERNAL_SECRET,
    LOG_LEVEL: 'trace',
    CREDENTIALS_KEK: KEK,
    CREDENTIALS_KEK_ID: 'kek-a',
    POLYMARKET_CLOB_URL: clob.baseUrl,
    POLYMARKET_DATA_API_URL: clob.dataApiUrl,
    POLYMARKET_CHAIN_ID: '80002',
    POLYMARKET_TIMEOUT_MS: '1000',
    LIVE_RECONCILER_ENABLED: 'true',
    LIVE_RECONCILE_INTERVAL_MS: '200',
    LIVE_FILL_SWEEP_INTERVAL_MS: '200',
    LIVE_PENDING_STALE_MS: '1000',
  });
  gateway = await startProcess('bin/startGateway.ts', { INTERNAL_TOKEN: INTERNAL_SECRET, LOG_LEVEL: 'trace', PORT: '0', CORE_URL: core.url, RATE_LIMIT_DEFAULT: '100000' });
}, 120_000);

afterAll(async () => {
  await gateway?.stop('SIGKILL');
  await core?.stop('SIGKILL');
  await clob?.close();
  await db?.$disconnect();
});

it('attached, traded, reconciled, listed and rewrapped: neither wallet key nor API secret nor passphrase is in any process output, any answer or a full pg_dump', async () => {
  const { secret: live, dashboardSecret } = await buildWorkspace(db, { environment: 'live', rateLimit: 100_000, name: 'Polymarket key at rest' });
  const market = await insertLivePolymarketMarket(db, PM_FED);
  const asDashboard = { key: dashboardSecret, headers: { 'x-environment': 'live' } };

  // A malformed attach carrying the real key: refused, naming the field.
  const sub1 = ok(await api('POST', '/v1/subaccounts', { key: live, body: { name: 'with API credentials' } }), 'subaccount').id as string;
  const refused = await api('PUT', `/v1/subaccounts/${sub1}/credentials/polymarket`, { ...asDashboard, body: { private_key: withCreds.privateKey, api_key: withCreds.account.apiKey, api_secret: `${withCreds.account.secret}!`, api_passphrase: withCreds.account.passphrase } });
  expect(refused.status).toBe(400);
  expect(refused.body.error).toMatchObject({ code: 'invalid_request', param: 'api_secret' });

  // Both wallets attached: the answers show the signer address only.
  const attached1 = ok(await api('PUT', `/v1/subaccounts/${sub1}/credentials/polymarket`, {
    ...asDashboard,
    body: { private_key: withCreds.privateKey, api_key: withCreds.account.apiKey, api_secret: withCreds.account.secret, api_passphrase: withCreds.account.passphrase },
  }), 'attach with API credentials');
  expect(attached1).toMatchObject({ exchange: 'polymarket', fingerprint: withCreds.address });
  const sub2 = ok(await api('POST', '/v1/subaccounts', { key: live, body: { name: 'key only' } }), 'subaccount').id as string;
  const attached2 = ok(await api('PUT', `/v1/subaccounts/${sub2}/credentials/polymarket`, { ...asDashboard, body: { private_key: keyOnly.privateKey } }), 'attach key only');
  expect(attached2).toMatchObject({ exchange: 'polymarket', fingerprint: keyOnly.address });

  // Each trades: a resting order canceled, a fill against the maker, a lost answer reconciled, a venue refusal, one of ours.
  const order = (sub: string, body: Record<string, string | undefined>, headers: Record<string, string> = {}) =>
    api('POST', '/v1/orders', { key: live, body: { subaccount_id: sub, market_id: market, side: 'yes', action: 'buy', type: 'limit', quantity: '5', ...body }, headers });
  await maker.rest(clob, { tokenId: PM_FED.yesTokenId, side: 'SELL', price: '0.56', size: '100' });
  for (const sub of [sub1, sub2]) {
    const resting = ok(await order(sub, { price: '0.30' }), 'resting order');
    expect(resting).toMatchObject({ status: 'open' });
    expect(ok(await api('DELETE', `/v1/orders/${resting.id}`, { key: live }), 'cancel')).toMatchObject({ status: 'canceled' });
    expect(ok(await order(sub, { price: '0.60' }), 'crossing order')).toMatchObject({ status: 'filled', average_fill_price: '0.56' });
    clob.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'POST', pathPrefix: '/order' });
    const lost = ok(await order(sub, { price: '0.21' }), 'lost answer');
    expect(lost.status).toBe('unknown');
    await eventually('the reconciler finding the lost order', async () => ((await db.order.findUniqueOrThrow({ where: { id: lost.id } })).status === 'open' ? true : undefined), 15_000);
    expect((await order(sub, { price: '0.40', quantity: '2' })).status).toBe(400); // below the market's 5-share minimum: ours
    expect(ok(await order(sub, { type: 'market', price: undefined, quantity: '500', time_in_force: 'fok' }), 'FOK killed').status).toMatch(/^(canceled|rejected)$/);
    for (const path of [`/v1/orders?subaccount_id=${sub}`, `/v1/orders/${lost.id}`, `/v1/fills?subaccount_id=${sub}`, `/v1/positions?subaccount_id=${sub}`, `/v1/portfolio?subaccount_id=${sub}`]) ok(await api('GET', path, { key: live }), path);
    expect(ok(await api('GET', `/v1/subaccounts/${sub}`, { key: live }), 'subaccount').credentials).toEqual([expect.objectContaining({ exchange: 'polymarket' })]);
  }
  // The key-only wallet's API credentials were derived by the core (L1): the fake created them.
  const derived = clob.exchange.accountsOwnedBy(keyOnly.address);
  expect(derived).toHaveLength(1);

  // The operator rewraps every credential under a new KEK (the CLI, a process of its own).
  const rewrap = await runProcess('bin/cli.ts', ['credentials', 'rewrap'], { DATABASE_URL: url, LOG_LEVEL: 'trace', CREDENTIALS_KEK: newKek(), CREDENTIALS_KEK_ID: 'kek-b', CREDENTIALS_OLD_KEKS: `kek-a:${KEK}` });
  cliRuns.push(rewrap);
  expect(rewrap.code).toBe(0);
  expect(rewrap.stdout).toContain("re-sealed under KEK 'kek-b'");

  // The haystacks, each shown to hold what it should.
  const { stdout: dump } = await run('/usr/bin/pg_dump', ['--no-password', `--dbname=${url}`], { maxBuffer: 1024 * 1024 * 1024 });
  const rows = await db.exchangeCredential.findMany({ where: { subaccountId: { in: [sub1, sub2] } } });
  expect(rows.map((row) => row.kekId)).toEqual(['kek-b', 'kek-b']);
  for (const row of rows) expect(dump).toContain(`\\\\x${Buffer.from(row.ciphertext).toString('hex')}`);
  expect(dump).toContain(withCreds.address);
  expect(dump).toContain(keyOnly.address);
  const logs = [core.output(), gateway.output(), ...cliRuns.map((r) => r.stdout + r.stderr)].join('\n');
  expect(logs).toContain('reconciled live orders'); // the core's reconciler, with the lost answers
  expect(logs).toContain('"path":"/v1/orders"'); // the gateway's access log
  const responses = answers.map((a) => `${a.status}\n${JSON.stringify([...a.headers])}\n${JSON.stringify(a.body)}`).join('\n');
  expect(responses).toContain(withCreds.address);

  const secrets: [string, string[]][] = [
    ['the attached wallet key', keyForms(withCreds)],
    ['the key-only wallet key', keyForms(keyOnly)],
    ['the attached API secret', encodings(withCreds.account.secret)],
    ['the attached API passphrase', encodings(withCreds.account.passphrase)],
    ['the derived API secret', encodings(derived[0]!.secret)],
    ['the derived API passphrase', encodings(derived[0]!.passphrase)],
  ];
  const leaks = (text: string) => {
    const lower = text.toLowerCase();
    return secrets.filter(([, forms]) => forms.some((form) => text.includes(form) || lower.includes(form.toLowerCase()))).map(([what]) => what);
  };
  // Control: the search finds a key written upper-case without 0x, in base64, and a derived secret.
  expect(leaks(`${keyOnly.privateKey.slice(2).toUpperCase()} ${Buffer.from(withCreds.privateKey.slice(2), 'hex').toString('base64')} ${derived[0]!.secret}`)).toEqual(['the attached wallet key', 'the key-only wallet key', 'the derived API secret']);
  const found = Object.entries({ 'process output': logs, answers: responses, pg_dump: dump }).flatMap(([where, text]) => leaks(text).map((what) => `${what} in ${where}`));
  expect(found).toEqual([]);
  console.log(
    `Polymarket key at rest: searched ${secrets.reduce((n, [, forms]) => n + forms.length, 0)} forms of 2 wallet keys, 2 API secrets and 2 passphrases in ` +
      `${logs.length} characters of output from 3 processes (core and gateway at trace, the CLI), ${answers.length} answers (${responses.length} characters) and a ${dump.length}-character pg_dump: 0 found`,
  );
}, 90_000);
