import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { parseKeyring } from '../../core/domain/credentialVault';
import { Decimal } from '../../core/domain/decimals';
import { openStoredCredential } from '../../core/db/storedCredentials';
import { createUser } from '../../core/services/accounts/users';
import { expectText, launchChromium } from '../support/browser';
import { databaseUrl, testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { ROOT } from '../support/processes';
import { startStack, type Stack } from '../support/stack';

const run = promisify(execFile);
const OUTPUT = path.join(ROOT, 'test-output');
const PASSWORD = 'a long enough password';
const NEW_PASSWORD = 'another long enough password';
const UNEMP_TITLE = 'Will the unemployment rate be 4.5% or higher next month?';

/** A decimal string rounded half away from zero to `places` places, the integer part grouped by thousands when `group`: what the page shows. */
function shown(value: string, places: number, group: boolean): string {
  const rounded = new Decimal(value).toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
  const [integer, fraction] = rounded.abs().toFixed(places).split('.');
  const sign = rounded.isNeg() && !rounded.isZero() ? '-' : '';
  return `${sign}${group ? integer!.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : integer}${fraction === undefined ? '' : `.${fraction}`}`;
}
/** Money as the page shows it: to the cent, thousands separated. */
const cents = (value: string) => shown(value, 2, true);
/** A price at a cent tick. */
const atCentTick = (value: string) => shown(value, 2, false);

async function dumpData(): Promise<string> {
  const { stdout } = await run('/usr/bin/pg_dump', ['--data-only', '--no-password', `--dbname=${databaseUrl()}`], { maxBuffer: 1024 * 1024 * 1024 });
  return stdout;
}

/**
 * The dashboard in a real headless Chromium (Debian's, driven by playwright-core) against the real
 * gateway and core on loopback: sign in; create a key and use it; revoke it and see 401; attach and
 * remove venue credentials with no plaintext in the database; edit a risk limit and see an order
 * refused; trade, then see the order, the fill and the P&L chart (screenshot in test-output/).
 * One user's session, step after step, as a person would use it.
 */
describe('dashboard in a browser', () => {
  let stack: Stack;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let email: string;
  let workingKey: string;
  let subaccountId: string;
  let marketId: string;
  let keyring: ReadonlyMap<string, Buffer>;
  const consoleErrors: string[] = [];
  const externalRequests: string[] = [];

  const byTest = (id: string) => page.getByTestId(id);
  const errorBanner = () => byTest('error-banner');

  beforeAll(async () => {
    // Sign-ins and password changes share a per-address budget: this one user makes about 8.
    const config = testConfig({ CREDENTIALS_KEK: randomBytes(32).toString('base64'), SIGN_IN_ATTEMPTS_PER_MINUTE: '100' });
    keyring = parseKeyring(config).keyring;
    stack = await startStack(config);
    base = stack.gateways[0];
    const { workspace } = await buildWorkspace(stack.core.db, { name: 'Browser Trading' });
    email = `browser-${randomBytes(4).toString('hex')}@example.com`;
    await createUser(stack.core.db, { workspaceId: workspace.id, email, password: PASSWORD });
    marketId = (await stack.core.db.market.findFirstOrThrow({ where: { venueMarketId: 'UNEMP-ABOVE-45', venue: 'sim_kalshi' } })).id;
    fs.mkdirSync(OUTPUT, { recursive: true });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    // Its own origin, and what the page makes itself (data: and blob: URLs of that origin); nothing else.
    const local = (url: string) => url.startsWith(base) || url.startsWith(`blob:${base}`) || url.startsWith('data:');
    page.on('request', (request) => !local(request.url()) && externalRequests.push(request.url()));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('refuses a wrong password, then signs in', async () => {
    await page.goto(`${base}/`);
    await byTest('signin-email').fill(email);
    await byTest('signin-password').fill('not the password at all');
    await byTest('signin-submit').click();
    await expectText(byTest('signin-error'), /incorrect/i);

    await byTest('signin-password').fill(PASSWORD);
    await byTest('signin-submit').click();
    await expectText(byTest('workspace-name'), 'Browser Trading');
    await expectText(byTest('user-email'), email);
    const cookie = (await context.cookies(base)).find((c) => c.name === 'mk_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: false });
    expect(await page.evaluate(() => document.cookie)).not.toContain('mk_session'); // HttpOnly: scripts cannot read it
  });

  it('creates a test key, shows its secret once with a copy button, and the key works against the REST API', async () => {
    await byTest('nav-keys').click();
    await byTest('key-name').fill('browser bot');
    await byTest('key-environment').selectOption('test');
    await byTest('key-create').click();
    const secret = (await byTest('key-secret').textContent())!.trim();
    expect(secret).toMatch(/^mk_test_[A-Za-z0-9]{40}$/);
    await expectText(page.locator('.secret-box'), 'The secret of browser bot.');

    await byTest('key-copy').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    const subaccount = await call(base, 'POST', '/v1/subaccounts', { key: secret, body: { name: 'browser book' } });
    expect(subaccount.status).toBe(200);
    subaccountId = subaccount.body.id;

    await byTest('key-secret-done').click();
    await page.waitForFunction((s) => !document.body.innerText.includes(s), secret);
    expect(await page.content()).not.toContain(secret);
    // Shown once: the list has the prefix and last 4, not the secret.
    const keyId = (await call(base, 'GET', '/v1/api_keys', { headers: await pageHeaders() })).body.data.find(
      (k: { name: string }) => k.name === 'browser bot',
    ).id;
    await expectText(byTest(`key-status-${keyId}`), 'active');
    await expectText(byTest(`key-row-${keyId}`), secret.slice(-4));
    workingKey = secret;
  });

  it('revokes a key, which gets 401 at once', async () => {
    await byTest('key-name').fill('short lived');
    await byTest('key-create').click();
    const secret = (await byTest('key-secret').textContent())!.trim();
    await byTest('key-secret-done').click();
    expect((await call(base, 'GET', '/v1/orders', { key: secret })).status).toBe(200);
    const keyId = (await call(base, 'GET', '/v1/api_keys', { headers: await pageHeaders() })).body.data.find(
      (k: { name: string }) => k.name === 'short lived',
    ).id;

    await byTest(`key-revoke-${keyId}`).click();
    await byTest(`key-revoke-confirm-${keyId}`).click();
    await expectText(byTest(`key-status-${keyId}`), 'revoked');
    const after = await call(base, 'GET', '/v1/orders', { key: secret });
    expect(after.status).toBe(401);
    expect(envelopeOf(after).code).toBe('unauthorized');
  });

  it('attaches Kalshi credentials with their environment, demo by default (only the fingerprint is shown, the database holds no plaintext) and removes them', async () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const pemLines = pem.split('\n').filter((line) => line.length > 20 && !line.startsWith('-----'));
    await byTest('nav-subaccounts').click();
    await byTest('cred-subaccount').selectOption(subaccountId);
    await byTest('cred-exchange').selectOption('kalshi');
    expect(await byTest('cred-kalshi-environment').inputValue()).toBe('demo'); // the safer choice is the default
    await byTest('cred-kalshi-key-id').fill(randomUUID());
    await byTest('cred-kalshi-private-key').fill(pem);
    await byTest('cred-attach').click();
    const row = byTest(`cred-row-${subaccountId}-kalshi`);
    await row.waitFor(); // the row is drawn once the attach has answered and the list reloaded
    const stored = await stack.core.db.exchangeCredential.findFirstOrThrow({ where: { subaccountId, exchange: 'kalshi' } });
    expect(stored.environment).toBe('demo');
    await expectText(row, stored.fingerprint);
    await expectText(row, 'demo');
    expect(await page.content()).not.toContain(pemLines[1]);
    expect(await byTest('cred-kalshi-private-key').inputValue()).toBe(''); // the form forgets the secret

    const dump = await dumpData();
    expect(dump).toContain(stored.fingerprint);
    for (const line of pemLines) expect(dump).not.toContain(line);

    // A production key is a deliberate choice; attaching again replaces the demo one.
    expect(await byTest('cred-kalshi-environment').inputValue()).toBe('demo');
    await byTest('cred-kalshi-environment').selectOption('production');
    await byTest('cred-kalshi-key-id').fill(randomUUID());
    await byTest('cred-kalshi-private-key').fill(pem);
    await byTest('cred-attach').click();
    await expectText(row, 'production');
    const opened = await openStoredCredential(stack.core.db, keyring, subaccountId, 'kalshi');
    expect(opened.environment).toBe('production');

    await byTest(`cred-remove-${subaccountId}-kalshi`).click();
    await row.waitFor({ state: 'detached' });
    expect(await stack.core.db.exchangeCredential.count({ where: { subaccountId } })).toBe(0);
  });

  it('attaches Polymarket credentials of a proxy wallet (funder address and signature type) and removes them', async () => {
    const privateKey = `0x${randomBytes(31).toString('hex')}01`; // below the curve order
    const apiSecret = randomBytes(32).toString('base64url');
    const funder = `0x${randomBytes(20).toString('hex')}`;
    await byTest('cred-subaccount').selectOption(subaccountId);
    await byTest('cred-exchange').selectOption('polymarket');
    await byTest('cred-pm-private-key').fill(privateKey);
    await byTest('cred-pm-api-key').fill(randomUUID());
    await byTest('cred-pm-api-secret').fill(apiSecret);
    await byTest('cred-pm-api-passphrase').fill(randomBytes(16).toString('hex'));
    await byTest('cred-pm-funder-address').fill(funder);
    await byTest('cred-pm-signature-type').selectOption('1');
    await byTest('cred-attach').click();
    const row = byTest(`cred-row-${subaccountId}-polymarket`);
    await row.waitFor();
    expect(await page.content()).not.toContain(apiSecret);

    const opened = await openStoredCredential(stack.core.db, keyring, subaccountId, 'polymarket');
    // Stored normalized: the funder checksummed; the row shows the signer address derived from the key.
    expect(opened).toMatchObject({ private_key: privateKey, api_secret: apiSecret, funder_address: getAddress(funder), signature_type: 1 });
    await expectText(row, privateKeyToAccount(privateKey as `0x${string}`).address);

    await byTest(`cred-remove-${subaccountId}-polymarket`).click();
    await row.waitFor({ state: 'detached' });
    expect(await stack.core.db.exchangeCredential.count({ where: { subaccountId } })).toBe(0);
  });

  it('edits a risk limit, and an order above it is rejected naming the limit', async () => {
    await byTest('nav-risk').click();
    await byTest('risk-subaccount').selectOption(subaccountId);
    await byTest('risk-max_order_notional').fill('2');
    await byTest('risk-save').click();
    await byTest('risk-saved').waitFor();

    const order = { subaccount_id: subaccountId, market_id: marketId, side: 'yes', action: 'buy', type: 'limit', price: '0.50', quantity: '10' };
    const refused = await call(base, 'POST', '/v1/orders', { key: workingKey, body: order });
    expect(refused.status).toBe(422);
    expect(envelopeOf(refused)).toMatchObject({ code: 'risk_limit_exceeded', limit: 'max_order_notional' });

    await byTest('risk-max_order_notional').fill('');
    await byTest('risk-save').click();
    await page.waitForFunction(
      async ([url, id]) => (await (await fetch(`${url}/v1/risk_limits/${id}`)).json()).max_order_notional === null,
      [base, subaccountId] as const,
    );
  });

  it('shows a dead-man\u2019s switch that fired, and disarms it: orders are accepted again', async () => {
    const armed = await call(base, 'PUT', '/v1/dead_mans_switch', { key: workingKey, body: { subaccount_id: subaccountId, timeout_seconds: 1 } });
    expect(armed.status).toBe(200);
    const switchId = armed.body.id as string;
    // No request of the key from here: it lapses after 1 s and a sweeper round fires it.
    for (let deadline = Date.now() + 10_000; (await stack.core.db.deadMansSwitch.findUniqueOrThrow({ where: { id: switchId } })).state !== 'fired'; ) {
      if (Date.now() > deadline) throw new Error('the switch did not fire within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await byTest('nav-orders').click();
    await byTest('nav-risk').click();
    await page.waitForFunction((id) => document.querySelector(`[data-testid="dms-state-${id}"]`)?.textContent?.startsWith('fired'), switchId);
    await page.screenshot({ path: path.join(OUTPUT, 'dashboard-dead-mans-switch.png'), fullPage: true });
    const order = { subaccount_id: subaccountId, market_id: marketId, side: 'yes', action: 'buy', type: 'limit', price: '0.01', quantity: '1' };
    expect(envelopeOf(await call(base, 'POST', '/v1/orders', { key: workingKey, body: order })).code).toBe('dead_mans_switch_fired');

    await byTest(`dms-disarm-${switchId}`).click();
    await page.waitForFunction((id) => document.querySelector(`[data-testid="dms-state-${id}"]`)?.textContent === 'disarmed', switchId);
    const accepted = await call(base, 'POST', '/v1/orders', { key: workingKey, body: order });
    expect(accepted.status).toBe(200);
    expect((await call(base, 'DELETE', `/v1/orders/${accepted.body.id}`, { key: workingKey })).status).toBe(200);
  });

  it('shows the order, its fill and the P&L chart after trading from a terminal', async () => {
    const placed = await call(base, 'POST', '/v1/orders', {
      key: workingKey,
      body: { subaccount_id: subaccountId, market_id: marketId, side: 'yes', action: 'buy', type: 'market', quantity: '10' },
    });
    expect(placed.status).toBe(200);
    expect(placed.body.status).toBe('filled');
    const fills = (await call(base, 'GET', `/v1/fills?order_id=${placed.body.id}`, { key: workingKey })).body.data;
    expect(fills.length).toBeGreaterThanOrEqual(1);

    await byTest('nav-orders').click();
    await expectText(byTest(`order-row-${placed.body.id}`), 'filled');
    await byTest('nav-fills').click();
    await expectText(byTest(`fill-row-${fills[0].id}`), 'counted');
    await byTest('nav-positions').click();
    const position = (await call(base, 'GET', `/v1/positions?subaccount_id=${subaccountId}`, { key: workingKey })).body.data[0];
    expect(position).toMatchObject({ market_id: marketId, side: 'yes', quantity: '10' });
    await expectFigure(byTest('position-row-0').locator(`.figure[data-exact="${position.average_cost}"]`).first(), position.average_cost, atCentTick(position.average_cost));

    await byTest('nav-overview').click();
    await page.locator('[data-testid="pnl-chart"][data-ready="true"]').waitFor();
    const canvas = byTest('pnl-chart').locator('canvas');
    const box = (await canvas.boundingBox())!;
    expect(box.width).toBeGreaterThan(200);
    expect(box.height).toBeGreaterThan(100);
    // Drawn, not blank: the canvas has pixels of more than one colour.
    const colours = await canvas.evaluate((element) => {
      const c = element as HTMLCanvasElement;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 97) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2] | (data[i + 3] << 24));
      return seen.size;
    });
    expect(colours).toBeGreaterThan(2);
    await byTest('exposure-chart').locator('canvas').waitFor();
    await page.screenshot({ path: path.join(OUTPUT, 'dashboard-pnl-chart.png'), fullPage: true });
    expect(fs.statSync(path.join(OUTPUT, 'dashboard-pnl-chart.png')).size).toBeGreaterThan(10_000);
  });

  it('shows a settlement once a market of one’s own settles, and the position is gone', async () => {
    const market = await call(base, 'POST', '/v1/test_helpers/markets', { key: workingKey, body: { title: 'Browser settles yes?', venue: 'sim-kalshi' } });
    expect(market.status).toBe(200);
    const bought = await call(base, 'POST', '/v1/orders', {
      key: workingKey,
      body: { subaccount_id: subaccountId, market_id: market.body.id, side: 'yes', action: 'buy', type: 'limit', price: '0.9', quantity: '4' },
    });
    expect(bought.body.status).toBe('filled');
    // The orders page names the market; its status follows the market's events while the page is shown.
    await byTest('nav-orders').click();
    const orderRow = byTest(`order-row-${bought.body.id}`);
    await expectText(orderRow, 'Browser settles yes?');
    expect(await orderRow.locator('.market-standing').count()).toBe(0); // open: nothing to say
    expect((await call(base, 'POST', `/v1/test_helpers/markets/${market.body.id}/close`, { key: workingKey })).status).toBe(200);
    await expectText(orderRow, '· closed');
    const settled = await call(base, 'POST', `/v1/test_helpers/markets/${market.body.id}/settle`, { key: workingKey, body: { result: 'yes' } });
    const [settlement] = settled.body.settlements;
    expect(settlement).toMatchObject({ payout: '4', yes_quantity: '4' });
    await expectText(orderRow, '· settled yes');

    await byTest('nav-settlements').click();
    const row = byTest(`settlement-row-${settlement.id}`);
    await expectText(row, 'Browser settles yes?');
    await expectText(row, 'settled yes');
    await expectText(row, 'yes (1 per YES)');
    await expectFigure(row.locator(`.figure[data-exact="${settlement.payout}"]`).first(), settlement.payout, '4.00');
    await byTest('nav-positions').click();
    await byTest('position-row-0').waitFor();
    expect(await page.getByText('Browser settles yes?').count()).toBe(0);
  });

  it('shows money to the cent with the exact figure on hover, prices to the tick, quantities trimmed, and markets by title', async () => {
    // A resting order whose notional has more than cents: 5.55 shares at 0.013 (a tick of 0.001) = 0.07215.
    const gdp = await stack.core.db.market.findFirstOrThrow({ where: { venueMarketId: 'pm-gdp-q-neg', venue: 'sim_polymarket' } });
    const resting = await call(base, 'POST', '/v1/orders', {
      key: workingKey,
      body: { subaccount_id: subaccountId, market_id: gdp.id, side: 'yes', action: 'buy', type: 'limit', price: '0.013', quantity: '5.55' },
    });
    expect(resting.body).toMatchObject({ status: 'open', price: '0.013', quantity: '5.55' });
    const get = async (path: string) => (await call(base, 'GET', path, { key: workingKey })).body;

    // Overview: every figure to the cent, the exact one in the title; at least one has more than cents.
    await byTest('nav-orders').click();
    await byTest('nav-overview').click();
    const stats = await get('/v1/risk/stats');
    expect(stats.open_order_notional).toBe('0.07215');
    for (const name of ['gross_exposure', 'net_exposure', 'market_value', 'open_order_notional', 'realized_pnl', 'unrealized_pnl', 'worst_case_loss']) {
      await expectFigure(byTest(`stat-${name}`).locator('.figure'), stats[name], cents(stats[name]));
    }
    expect(await byTest('stat-open_order_notional').locator('.figure').textContent()).toBe('0.07');

    // Subaccounts: the cash is the portfolio's, to the cent with thousands separated.
    await byTest('nav-subaccounts').click();
    const [balance] = (await get(`/v1/portfolio?subaccount_id=${subaccountId}`)).data;
    expect(cents(balance.cash_balance)).toContain(',');
    await expectFigure(byTest(`subaccount-row-${subaccountId}`).locator('.figure'), balance.cash_balance, cents(balance.cash_balance));

    // Orders: the market by its title and ticker, the price to the market's tick (0.001), the quantity as sent.
    await byTest('nav-orders').click();
    const orderRow = byTest(`order-row-${resting.body.id}`);
    await expectText(orderRow.locator('.market-title'), gdp.title);
    await expectText(orderRow.locator('.market-ticker'), 'pm-gdp-q-neg');
    await expectFigure(orderRow.locator('.figure[data-exact="0.013"]'), '0.013', '0.013');
    await expectText(orderRow, '5.55');
    const filled = (await get(`/v1/orders?subaccount_id=${subaccountId}&status=filled`)).data.find((o: { market_id: string }) => o.market_id === marketId);
    const filledRow = byTest(`order-row-${filled.id}`);
    await expectText(filledRow.locator('.market-title'), UNEMP_TITLE);
    await expectText(filledRow.locator('.market-ticker'), 'UNEMP-ABOVE-45');
    await expectFigure(filledRow.locator(`.figure[data-exact="${filled.fees_paid}"]`).first(), filled.fees_paid, cents(filled.fees_paid));
    await expectFigure(filledRow.locator(`.figure[data-exact="${filled.average_fill_price}"]`).first(), filled.average_fill_price, atCentTick(filled.average_fill_price));

    // Fills: the same.
    await byTest('nav-fills').click();
    const [fill] = (await get(`/v1/fills?order_id=${filled.id}`)).data;
    const fillRow = byTest(`fill-row-${fill.id}`);
    await expectText(fillRow.locator('.market-title'), UNEMP_TITLE);
    await expectText(fillRow.locator('.market-ticker'), 'UNEMP-ABOVE-45');
    await expectFigure(fillRow.locator(`.figure[data-exact="${fill.price}"]`).first(), fill.price, atCentTick(fill.price));
    await expectFigure(fillRow.locator(`.figure[data-exact="${fill.fee}"]`).first(), fill.fee, cents(fill.fee));

    // Positions: title, prices to the tick, P&L to the cent.
    await byTest('nav-positions').click();
    const [position] = (await get(`/v1/positions?subaccount_id=${subaccountId}`)).data;
    const positionRow = byTest('position-row-0');
    await expectText(positionRow.locator('.market-title'), UNEMP_TITLE);
    await expectText(positionRow.locator('.market-ticker'), 'UNEMP-ABOVE-45');
    for (const price of [position.average_cost, position.mark_price]) {
      await expectFigure(positionRow.locator(`.figure[data-exact="${price}"]`).first(), price, atCentTick(price));
    }
    for (const money of [position.realized_pnl, position.unrealized_pnl]) {
      await expectFigure(positionRow.locator(`.figure[data-exact="${money}"]`).first(), money, cents(money));
    }
    await page.screenshot({ path: path.join(OUTPUT, 'dashboard-positions.png'), fullPage: true });

    expect((await call(base, 'DELETE', `/v1/orders/${resting.body.id}`, { key: workingKey })).status).toBe(200);
  });

  it('opens GraphiQL on the same origin with the session (reads only) and runs a query', async () => {
    // Its Content-Security-Policy lets the page, its editor and its workers run: nothing is blocked.
    const blocked: string[] = [];
    const onConsole = (message: { text(): string }) => void (/Content Security Policy|Refused to/i.test(message.text()) && blocked.push(message.text()));
    page.on('console', onConsole);
    const opened = await page.goto(`${base}/analyst/graphql`);
    expect(opened!.headers()['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(opened!.headers()['x-frame-options']).toBe('DENY');
    await page.locator('.graphiql-execute-button').click();
    await expectText(page.locator('.graphiql-response'), 'Browser Trading');
    await expectText(page.locator('.graphiql-response'), subaccountId);
    page.off('console', onConsole);
    expect(blocked).toEqual([]);
    await page.screenshot({ path: path.join(OUTPUT, 'analyst-graphiql.png') });
    await page.goto(`${base}/dashboard/`);
    await byTest('workspace-name').waitFor();
  });

  it('changes the password on the Account page: the old one no longer signs in, the new one does', async () => {
    await byTest('nav-account').click();
    await expectText(byTest('account-email'), email);
    await byTest('password-current').fill(PASSWORD);
    await byTest('password-new').fill(NEW_PASSWORD);
    await byTest('password-repeat').fill(`${NEW_PASSWORD} typo`);
    await byTest('password-change').click();
    await expectText(errorBanner(), /differ/); // caught in the page, nothing sent
    await byTest('password-current').fill('not the current password');
    await byTest('password-new').fill(NEW_PASSWORD);
    await byTest('password-repeat').fill(NEW_PASSWORD);
    await byTest('password-change').click();
    await expectText(errorBanner(), /current password is incorrect/);
    await byTest('password-current').fill(PASSWORD);
    await byTest('password-new').fill(NEW_PASSWORD);
    await byTest('password-repeat').fill(NEW_PASSWORD);
    await byTest('password-change').click();
    await expectText(byTest('password-changed'), 'Password changed');
    expect(await byTest('password-new').inputValue()).toBe(''); // the form forgets it

    expect((await call(base, 'POST', '/v1/session', { body: { email, password: PASSWORD } })).status).toBe(401);
    expect((await call(base, 'POST', '/v1/session', { body: { email, password: NEW_PASSWORD } })).status).toBe(200);
  });

  it('signs out: the page returns to sign-in and the old cookie no longer works', async () => {
    const headers = await pageHeaders();
    await byTest('signout').click();
    await byTest('signin-email').waitFor();
    expect((await call(base, 'GET', '/v1/session', { headers: { cookie: headers.cookie } })).status).toBe(401);
  });

  it('signs out everywhere: the page and another device are both signed out', async () => {
    const otherDevice = await call(base, 'POST', '/v1/session', { body: { email, password: NEW_PASSWORD } });
    const otherCookie = otherDevice.headers.getSetCookie().find((c) => c.startsWith('mk_session='))!.split(';')[0];
    await byTest('signin-email').fill(email);
    await byTest('signin-password').fill(NEW_PASSWORD);
    await byTest('signin-submit').click();
    await byTest('nav-account').click();
    const headers = await pageHeaders();
    await byTest('signout-everywhere').click();
    await byTest('signin-email').waitFor();
    expect((await call(base, 'GET', '/v1/session', { headers: { cookie: headers.cookie } })).status).toBe(401);
    expect((await call(base, 'GET', '/v1/session', { headers: { cookie: otherCookie } })).status).toBe(401);
  });

  it('loaded nothing from elsewhere and logged no errors', () => {
    expect(externalRequests).toEqual([]);
    // The wrong password's 401, GET /v1/session before sign-in, and the wrong current password's 403.
    expect(consoleErrors.filter((text) => !/status of 40[013]/.test(text))).toEqual([]);
  });

  /** Waits until the figure shows `text` with the exact value `exact` in its title (10 s at most), or fails with what it showed. */
  async function expectFigure(locator: ReturnType<Page['locator']>, exact: string, text: string): Promise<void> {
    await locator.waitFor();
    const deadline = Date.now() + 10_000;
    let seen: [string | null, string | null] = [null, null];
    while (Date.now() < deadline) {
      seen = [await locator.textContent(), await locator.getAttribute('title')];
      if (seen[0] === text && seen[1] === exact) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`expected "${text}" titled "${exact}", the page showed "${seen[0]}" titled "${seen[1]}"`);
  }

  /** The page's own session cookie, to look at what it sees through the API. */
  async function pageHeaders(): Promise<Record<string, string>> {
    const cookie = (await context.cookies(base)).find((c) => c.name === 'mk_session')!;
    return { cookie: `mk_session=${cookie.value}` };
  }
});
