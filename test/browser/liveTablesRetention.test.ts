import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { sweepExpiredEvents } from '../../core/services/events/eventRetention';
import { createUser } from '../../core/services/accounts/users';
import { expectText, launchChromium, signedInPage } from '../support/browser';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../trading/helpers';

const PASSWORD = 'a long enough password';
const MAX_AGE_MS = 2000;

/**
 * A live table whose last event is no longer kept (docs/dashboard.md "Live tables", docs/events.md
 * "Retention"), in a real headless Chromium: the Orders view saw an order's events, the log moved on
 * with events the view does not follow, and the order's were deleted as older than the window. When
 * its stream ends (EVENT_STREAM_MAX_AGE_MS, short here) and it reconnects with that Last-Event-ID, the
 * answer is 410 events_expired: the view follows from now instead, and stays live.
 */
describe('a live table whose Last-Event-ID expired', () => {
  let stack: Stack;
  let base: string;
  let browser: Browser;
  let page: Page;
  let key: string;
  let subaccountId: string;
  let marketId: string;

  const byTest = (id: string) => page.getByTestId(id);
  const order = (body: Record<string, unknown>) =>
    call(base, 'POST', '/v1/orders', { key, body: { subaccount_id: subaccountId, market_id: marketId, side: 'yes', action: 'buy', ...body } });
  const liveState = () => page.getByTestId('orders-live').getAttribute('data-state');

  beforeAll(async () => {
    stack = await startStack(testConfig({ DATABASE_URL: await ownDatabase('live_tables_retention'), EVENT_STREAM_MAX_AGE_MS: String(MAX_AGE_MS) }));
    base = stack.gateways[0]!;
    const built = await buildWorkspace(stack.core.db, { name: 'Live Retention', rateLimit: 10_000 });
    key = built.secret;
    const email = `retention-${randomBytes(4).toString('hex')}@example.com`;
    await createUser(stack.core.db, { workspaceId: built.workspace.id, email, password: PASSWORD });
    marketId = (await stack.core.db.market.findFirstOrThrow({ where: { venueMarketId: 'UNEMP-ABOVE-45', venue: 'sim_kalshi' } })).id;
    subaccountId = (await call(base, 'POST', '/v1/subaccounts', { key, body: { name: 'retention book' } })).body.id;

    browser = await launchChromium();
    page = await signedInPage(browser, base, email, PASSWORD);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('reconnects from now and stays live', async () => {
    await byTest('nav-orders').click();
    await page.locator('[data-testid="orders-live"][data-state="live"]').waitFor({ timeout: 10_000 });
    const seen = (await order({ type: 'limit', price: '0.01', quantity: '1' })).body;
    await expectText(byTest(`order-row-${seen.id}`), 'open');
    // Newer events the Orders view does not follow, then every event before the newest ages out (events
    // age from their numbering, sequenced_at) and is swept: one after the view's last event is gone
    // (whether the view would have taken it or not).
    for (const limit of ['500', '600']) expect((await call(base, 'PUT', `/v1/risk_limits/${subaccountId}`, { key, body: { max_order_notional: limit } })).status).toBe(200);
    const [newest] = await waitFor(
      () => stack.core.db.event.findMany({ where: { type: 'risk_limits.updated', seq: { not: null } }, select: { seq: true }, orderBy: { seq: 'desc' } }),
      (rows) => rows.length === 2,
    );
    await stack.core.db.$executeRaw`UPDATE events SET created_at = now() - interval '31 days', sequenced_at = now() - interval '31 days' WHERE seq < ${newest!.seq}`;
    expect((await sweepExpiredEvents(stack.core.db, new Date(Date.now() - 30 * 86_400_000))).events).toBeGreaterThan(0);

    // The stream ends (its longest life) and reconnects with its last event's id: refused (an event after
    // it is gone), then from now.
    await waitFor(liveState, (state) => state !== 'live', 2 * MAX_AGE_MS + 5000);
    await page.locator('[data-testid="orders-live"][data-state="live"]').waitFor({ timeout: 10_000 });
    const after = (await order({ type: 'limit', price: '0.01', quantity: '2' })).body;
    await expectText(byTest(`order-row-${after.id}`), 'open');
    expect(await liveState()).toBe('live');
  });
});
