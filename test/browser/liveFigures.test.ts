import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createUser } from '../../core/services/accounts/users';
import type { KalshiFake } from '../../fakes/kalshi/server';
import { expectText, launchChromium, signedInPage } from '../support/browser';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call } from '../support/http';
import { v2OrderBody } from '../support/kalshiOrders';
import { FED, liveCoreSettings, liveMarketId, liveSubaccount, MAKER, placeLive, startKalshiFake, type LiveTrader } from '../support/kalshiLive';
import { newKalshiKey } from '../support/kalshiKeys';
import { ROOT } from '../support/processes';
import { startStack, type Stack } from '../support/stack';

const PASSWORD = 'a long enough password';
const alice = newKalshiKey();

/**
 * The dashboard's live views agree with the API (issue "the first hour of a new user"), in a real
 * headless Chromium against the gateway and core trading on the Kalshi fake: a live subaccount's
 * cash in the Subaccounts table is the venue's balance, as GET /v1/portfolio has it (not the
 * subaccount row's own `cash_balance`, which a live subaccount does not use), to the cent with the
 * exact figure in the title; its position names the market by its title and is marked to the
 * venue's book.
 */
describe('live figures in a browser', () => {
  let production: KalshiFake;
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let trader: LiveTrader;
  let subaccountId: string;
  let fed: string;
  const consoleErrors: string[] = [];
  const byTest = (id: string) => page.getByTestId(id);

  beforeAll(async () => {
    production = await startKalshiFake('production', [{ userId: 'user-alice', key: alice, balanceDollars: '1991.50' }]);
    stack = await startStack(testConfig(await liveCoreSettings('browser_live_figures', production)));
    const base = stack.gateways[0]!;
    const built = await buildWorkspace(stack.core.db, { environment: 'live', rateLimit: 10_000, name: 'Live Figures' });
    trader = { base, live: built.secret, dashboard: built.dashboardSecret };
    const email = `live-figures-${randomBytes(4).toString('hex')}@example.com`;
    await createUser(stack.core.db, { workspaceId: built.workspace.id, email, password: PASSWORD });
    fed = await liveMarketId(stack.core.db, FED);
    subaccountId = await liveSubaccount(trader, 'alice', { key: alice, environment: 'production' });
    for (const [side, price] of [['bid', '0.4500'], ['ask', '0.5500']] as const) {
      expect(production.placeOrderAs(MAKER, v2OrderBody(FED, { side, price, count: '5.00' }))).toMatchObject({ status: 201 });
    }
    const bought = await placeLive(trader, { subaccount_id: subaccountId, market_id: fed, side: 'yes', action: 'buy', type: 'market', quantity: '2' });
    expect(bought.body).toMatchObject({ status: 'filled', average_fill_price: '0.55' });

    browser = await launchChromium();
    page = await signedInPage(browser, base, email, PASSWORD, consoleErrors);
    await byTest('env-select').selectOption('live');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await production?.close();
  });

  const get = async (path: string) => (await call(trader.base, 'GET', path, { key: trader.live })).body;

  it("shows a live subaccount's cash as the portfolio has it: the venue's balance, to the cent, exact on hover", async () => {
    const [balance] = (await get(`/v1/portfolio?subaccount_id=${subaccountId}`)).data;
    // 1991.50 − 2 × 0.55 − the taker fee 0.07 × 2 × 0.55 × 0.45 = 0.03465, rounded up to 0.0347.
    expect(balance.cash_balance).toBe('1990.3653');
    expect((await get(`/v1/subaccounts/${subaccountId}`)).cash_balance).not.toBe(balance.cash_balance); // the row's own is not the cash
    await byTest('nav-subaccounts').click();
    const cash = byTest(`subaccount-row-${subaccountId}`).locator('.figure');
    await cash.waitFor();
    await expectText(cash, '1,990.37');
    expect(await cash.getAttribute('title')).toBe('1990.3653');
  });

  it("names the position's market by its title and marks it to the venue's book", async () => {
    const market = await stack.core.db.market.findUniqueOrThrow({ where: { id: fed } });
    const [position] = (await get(`/v1/positions?subaccount_id=${subaccountId}`)).data;
    expect(position).toMatchObject({ average_cost: '0.55', mark_price: '0.5', unrealized_pnl: '-0.1' }); // bid 0.45, ask 0.55 (3 left)
    await byTest('nav-positions').click();
    const row = byTest('position-row-0');
    await expectText(row.locator('.market-title'), market.title);
    await expectText(row.locator('.market-ticker'), FED);
    const mark = row.locator('.figure[data-exact="0.5"]');
    await expectText(mark, '0.50');
    const unrealized = row.locator('.figure[data-exact="-0.1"]');
    await expectText(unrealized, '-0.10');
    expect(await unrealized.getAttribute('class')).toContain('negative');
    await page.screenshot({ path: path.join(ROOT, 'test-output', 'dashboard-live-positions.png'), fullPage: true });
    // The page's first look for a session, before signing in, is a 401 Chromium logs; nothing else.
    expect(consoleErrors.filter((text) => !/status of 401/.test(text))).toEqual([]);
  });
});
