import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { createUser } from '../../core/services/accounts/users';
import { expectText, launchChromium, signedInPage } from '../support/browser';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call } from '../support/http';
import { startStack, type Stack } from '../support/stack';

const PASSWORD = 'a long enough password';

/**
 * The dashboard's order and fill tables update live (docs/dashboard.md, "Live tables"), in a real
 * headless Chromium against the real gateway and core: signed in, with the Orders or Fills view
 * open, orders placed, filled and canceled through the REST API with an API key of the same
 * workspace show up in the table without the page being reloaded (a mark left on `window` is still
 * there, and the browser made no second navigation).
 */
describe('live order and fill tables in a browser', () => {
  let stack: Stack;
  let base: string;
  let browser: Browser;
  let page: Page;
  let key: string;
  let subaccountId: string;
  let marketId: string;
  const consoleErrors: string[] = [];

  const byTest = (id: string) => page.getByTestId(id);
  const order = (body: Record<string, unknown>) =>
    call(base, 'POST', '/v1/orders', { key, body: { subaccount_id: subaccountId, market_id: marketId, side: 'yes', action: 'buy', ...body } });
  const untilLive = (name: string) => page.locator(`[data-testid="${name}-live"][data-state="live"]`).waitFor({ timeout: 10_000 });

  beforeAll(async () => {
    stack = await startStack(testConfig());
    base = stack.gateways[0]!;
    const built = await buildWorkspace(stack.core.db, { name: 'Live Tables', rateLimit: 10_000 });
    key = built.secret;
    const email = `live-${randomBytes(4).toString('hex')}@example.com`;
    await createUser(stack.core.db, { workspaceId: built.workspace.id, email, password: PASSWORD });
    marketId = (await stack.core.db.market.findFirstOrThrow({ where: { venueMarketId: 'UNEMP-ABOVE-45', venue: 'sim_kalshi' } })).id;
    subaccountId = (await call(base, 'POST', '/v1/subaccounts', { key, body: { name: 'live book' } })).body.id;

    browser = await launchChromium();
    page = await signedInPage(browser, base, email, PASSWORD, consoleErrors);
    await page.evaluate(() => ((window as unknown as { liveMark: string }).liveMark = 'not reloaded'));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('the Orders view shows a new order, then its change of status, as they happen', async () => {
    await byTest('nav-orders').click();
    await untilLive('orders');
    // The cancel below can only reach the table by its event (the read made when the stream opened came before it).
    const resting = await order({ type: 'limit', price: '0.01', quantity: '3' });
    expect(resting.body.status).toBe('open');
    await expectText(byTest(`order-row-${resting.body.id}`), 'open');
    expect((await call(base, 'DELETE', `/v1/orders/${resting.body.id}`, { key })).status).toBe(200);
    await expectText(byTest(`order-row-${resting.body.id}`), 'canceled');

    const filled = await order({ type: 'market', quantity: '2' });
    expect(filled.body.status).toBe('filled');
    await expectText(byTest(`order-row-${filled.body.id}`), 'filled');
    await expectNotReloaded();
  });

  it('the Fills view shows a fill as it happens: the acceptance of issue 15', async () => {
    await byTest('nav-fills').click();
    await untilLive('fills');
    // Two orders: the first's fill may come with the read made when the stream opened; the second's
    // can only come from its event.
    for (const quantity of ['4', '5']) {
      const filled = await order({ type: 'market', quantity });
      expect(filled.body.status).toBe('filled');
      const fills = (await call(base, 'GET', `/v1/fills?order_id=${filled.body.id}`, { key })).body.data as { id: string }[];
      expect(fills.length).toBeGreaterThanOrEqual(1);
      for (const fill of fills) await expectText(byTest(`fill-row-${fill.id}`), 'counted');
    }
    await expectNotReloaded();
    // The page's first look for a session, before signing in, is a 401 Chromium logs; nothing else.
    expect(consoleErrors.filter((text) => !/status of 401/.test(text))).toEqual([]);
  });

  /** The page was never loaded again: the mark set after signing in is there, and there was one navigation. */
  async function expectNotReloaded() {
    expect(await page.evaluate(() => (window as unknown as { liveMark?: string }).liveMark)).toBe('not reloaded');
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
  }
});
