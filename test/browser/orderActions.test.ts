import { randomBytes } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { Decimal } from '../../core/domain/decimals';
import { createUser } from '../../core/services/accounts/users';
import { expectText, launchChromium, signedInPage } from '../support/browser';
import { asPage, signIn } from '../support/dashboardSession';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call } from '../support/http';
import { startStack, type Stack } from '../support/stack';

const PASSWORD = 'a long enough password';

/**
 * The Orders table's actions (docs/dashboard.md, "Order actions") in a real headless Chromium against
 * the real gateway and core: a resting order amended through its row's form (its total quantity
 * down, then its price), the row and the API agreeing; a refused amend showing the API's own message;
 * Cancel all for one subaccount and one market canceling only that market's orders; and a read-only
 * user seeing neither action, which the API refuses anyway. Orders are placed with an API key on the
 * simulated Kalshi, at prices far below the book (they rest).
 */
describe('order actions in a browser', () => {
  let stack: Stack;
  let base: string;
  let browser: Browser;
  let page: Page;
  let key: string;
  let email: string;
  let readerEmail: string;
  let unempId: string;
  let unempTitle: string;
  let cpiId: string;
  const consoleErrors: string[] = [];

  const byTest = (id: string) => page.getByTestId(id);
  const newSubaccount = async (name: string): Promise<string> => (await call(base, 'POST', '/v1/subaccounts', { key, body: { name } })).body.id;
  const restingOrder = async (subaccountId: string, marketId: string, price: string, quantity: string): Promise<string> => {
    const placed = await call(base, 'POST', '/v1/orders', {
      key,
      body: { subaccount_id: subaccountId, market_id: marketId, side: 'yes', action: 'buy', type: 'limit', price, quantity },
    });
    expect(placed.body).toMatchObject({ status: 'open' });
    return placed.body.id;
  };
  const orderOf = async (id: string) => (await call(base, 'GET', `/v1/orders/${id}`, { key })).body;
  const same = (a: string, b: string) => new Decimal(a).eq(b);

  /** The cell of `row` under the Orders table's column `header`. */
  async function cellOf(row: Locator, header: string): Promise<Locator> {
    const headers = (await byTest('orders-table').locator('thead th').allTextContents()).map((text) => text.trim());
    expect(headers).toContain(header);
    return row.locator('td').nth(headers.indexOf(header));
  }

  /** The Orders view of one subaccount (and market), its table live; opened afresh, so that it lists the subaccounts made since. */
  async function openOrders(target: Page, subaccountId: string, marketId = '') {
    await target.getByTestId('nav-overview').click();
    await target.getByTestId('nav-orders').click();
    await target.locator('[data-testid="orders-live"][data-state="live"]').waitFor({ timeout: 10_000 });
    await target.getByTestId('orders-subaccount').selectOption(subaccountId);
    await target.getByTestId('orders-market').selectOption(marketId);
  }

  beforeAll(async () => {
    stack = await startStack(testConfig());
    base = stack.gateways[0]!;
    const built = await buildWorkspace(stack.core.db, { name: 'Order Actions', rateLimit: 10_000 });
    key = built.secret;
    email = `actions-${randomBytes(4).toString('hex')}@example.com`;
    readerEmail = `reader-${randomBytes(4).toString('hex')}@example.com`;
    await createUser(stack.core.db, { workspaceId: built.workspace.id, email, password: PASSWORD });
    await createUser(stack.core.db, { workspaceId: built.workspace.id, email: readerEmail, password: PASSWORD, scope: 'read_only' });
    const unemp = await stack.core.db.market.findFirstOrThrow({ where: { venueMarketId: 'UNEMP-ABOVE-45', venue: 'sim_kalshi' } });
    unempId = unemp.id;
    unempTitle = unemp.title;
    cpiId = (await stack.core.db.market.findFirstOrThrow({ where: { venueMarketId: 'CPI-ABOVE-3', venue: 'sim_kalshi' } })).id;
    browser = await launchChromium();
    page = await signedInPage(browser, base, email, PASSWORD, consoleErrors);
    page.setDefaultTimeout(10_000); // a step that cannot happen fails by name, before the test's own timeout
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('amends a resting order through its row: the total quantity down (the row and the API agree); the price is not the dashboard\'s to change', async () => {
    const subaccountId = await newSubaccount('amending');
    const orderId = await restingOrder(subaccountId, unempId, '0.05', '10');
    await openOrders(page, subaccountId);
    const row = byTest(`order-row-${orderId}`);
    await expectText(row, 'open');

    // The form starts from the order's own terms.
    await byTest(`order-amend-${orderId}`).click();
    expect(same(await byTest(`order-amend-price-${orderId}`).inputValue(), '0.05')).toBe(true);
    expect(same(await byTest(`order-amend-quantity-${orderId}`).inputValue(), '10')).toBe(true);
    await expectText(byTest(`order-amend-form-${orderId}`), 'Total quantity');

    await byTest(`order-amend-quantity-${orderId}`).fill('6');
    await byTest(`order-amend-submit-${orderId}`).click();
    await byTest(`order-amend-form-${orderId}`).waitFor({ state: 'detached' });
    await expectText(await cellOf(row, 'Quantity'), /^6$/);
    await expectText(await cellOf(row, 'Price'), '0.05');
    const shrunk = await orderOf(orderId);
    expect(same(shrunk.quantity, '6') && same(shrunk.price, '0.05')).toBe(true);
    expect(shrunk.status).toBe('open');

    // A session cannot trade: the price (which could cross the book) is not for the dashboard to change.
    await byTest(`order-amend-${orderId}`).click();
    expect(await byTest(`order-amend-price-${orderId}`).isDisabled()).toBe(true);
    await byTest(`order-amend-close-${orderId}`).click();
  });

  it('shows the API\'s message under the form when it refuses an amend (a larger size, from a session), and the order stays as it was', async () => {
    const subaccountId = await newSubaccount('refused');
    const orderId = await restingOrder(subaccountId, unempId, '0.05', '4');
    await openOrders(page, subaccountId);
    await byTest(`order-amend-${orderId}`).click();
    // A larger size can trade: refused to a session (403), with the API's words.
    await byTest(`order-amend-quantity-${orderId}`).fill('8');
    await byTest(`order-amend-submit-${orderId}`).click();
    const error = byTest(`order-amend-error-${orderId}`);
    await expectText(error, 'needs an API key');
    expect(await error.textContent()).not.toMatch(/\bat .*\.(ts|js)|Error:/); // the message, never a stack
    await byTest(`order-amend-close-${orderId}`).click();
    await byTest(`order-amend-form-${orderId}`).waitFor({ state: 'detached' });

    const unchanged = await orderOf(orderId);
    expect(same(unchanged.price, '0.05') && same(unchanged.quantity, '4')).toBe(true);
    await expectText(await cellOf(byTest(`order-row-${orderId}`), 'Price'), '0.05');
  });

  it('cancels all the resting orders of a subaccount in one market, after confirming, and no other market\'s', async () => {
    const subaccountId = await newSubaccount('pulling quotes');
    const inMarket = [await restingOrder(subaccountId, unempId, '0.04', '3'), await restingOrder(subaccountId, unempId, '0.05', '2')];
    const otherMarket = await restingOrder(subaccountId, cpiId, '0.05', '5');
    const otherSubaccount = await restingOrder(await newSubaccount('another book'), unempId, '0.05', '1');

    await openOrders(page, subaccountId, unempId);
    for (const id of inMarket) await expectText(byTest(`order-row-${id}`), 'open');
    await byTest(`order-row-${otherMarket}`).waitFor({ state: 'detached' }); // filtered to the market (once the filter's read is in)

    // A confirmation names what will be canceled; keeping them cancels nothing.
    await byTest('orders-cancel-all').click();
    await expectText(byTest('orders-cancel-all-panel'), unempTitle);
    await expectText(byTest('orders-cancel-all-panel'), 'pulling quotes');
    await byTest('orders-cancel-all-keep').click();
    expect((await orderOf(inMarket[0]!)).status).toBe('open');

    await byTest('orders-cancel-all').click();
    await byTest('orders-cancel-all-confirm').click();
    await expectText(byTest('orders-cancel-all-count'), '2 orders');
    expect(await byTest('orders-cancel-all-result').textContent()).not.toContain('Not canceled');
    for (const id of inMarket) {
      await expectText(byTest(`order-row-${id}`), 'canceled');
      expect((await orderOf(id)).status).toBe('canceled');
    }

    // Another market's order, and another subaccount's in the same market, still rest.
    expect((await orderOf(otherMarket)).status).toBe('open');
    expect((await orderOf(otherSubaccount)).status).toBe('open');
    await byTest('orders-market').selectOption('');
    await expectText(byTest(`order-row-${otherMarket}`), 'open');

    // The 403 of the refused amend (test above) is the only console error: Chromium logs failed requests.
    expect(consoleErrors.filter((text) => !/status of (400|401|403)/.test(text))).toEqual([]);
  });

  it('shows a read-only user neither action, and the API refuses them to that user', async () => {
    const subaccountId = await newSubaccount('watched');
    const orderId = await restingOrder(subaccountId, unempId, '0.05', '2');
    const reader = await signedInPage(browser, base, readerEmail, PASSWORD);
    try {
      await expectText(reader.getByTestId('user-email'), readerEmail);
      await openOrders(reader, subaccountId);
      await expectText(reader.getByTestId(`order-row-${orderId}`), 'open');
      expect(await reader.getByTestId(`order-amend-${orderId}`).count()).toBe(0);
      expect(await reader.getByTestId('orders-cancel-all').count()).toBe(0);
    } finally {
      await reader.context().close();
    }

    const session = await signIn(base, readerEmail, PASSWORD);
    expect((await asPage(base, session, 'PATCH', `/v1/orders/${orderId}`, { body: { quantity: '1' } })).status).toBe(403);
    expect((await asPage(base, session, 'DELETE', `/v1/orders?subaccount_id=${subaccountId}`)).status).toBe(403);
    expect((await orderOf(orderId)).status).toBe('open');
  });
});
