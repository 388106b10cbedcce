import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { createUser } from '../../core/services/accounts/users';
import { formatPrice, formatQuantity } from '../../dashboard/src/format';
import { expectText, launchChromium, signedInPage } from '../support/browser';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, ok } from '../support/http';
import { ROOT } from '../support/processes';
import { startStack, type Stack } from '../support/stack';

const OUTPUT = path.join(ROOT, 'test-output');
const PASSWORD = 'a long enough password';
const TITLE = 'Will the market page show this book?';
/** Generous: a loaded 2-core machine runs the stack, Chromium and the test together. */
const WAIT_MS = 20_000;
/** How long the reconnecting suite's gateway keeps a stream open before ending it for the client to reconnect. */
const STREAM_MAX_AGE_MS = 5000;

/** The quote's figures the page shows (test ids `quote-<field>`): prices to the tick, the rest as quantities. */
const QUOTE_PRICES = ['yes_bid', 'yes_ask', 'no_bid', 'no_ask', 'last_price'] as const;
const QUOTE_QUANTITIES = ['yes_bid_size', 'yes_ask_size', 'no_bid_size', 'no_ask_size', 'volume_24h', 'volume'] as const;

type Json = Record<string, any>;

/** Waits until `check` answers nothing (it answers what still differs), or fails after WAIT_MS with its last answer. */
async function until(check: () => Promise<string | null>, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  let difference: string | null = 'not checked';
  while (Date.now() < deadline) {
    difference = await check();
    if (difference === null) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: ${difference}`);
}

/**
 * A stack (`settings` over the test configuration), a workspace with a user signed in to the
 * dashboard in Chromium, an API key, a subaccount, and a test-helper market of the workspace traded
 * once (buying YES takes the ask: a fill, a position, a trade and a candle); with the reads the
 * tests compare the page to.
 */
async function marketPageFixture(settings: Record<string, string> = {}) {
  const stack: Stack = await startStack(testConfig(settings));
  const base = stack.gateways[0]!;
  const built = await buildWorkspace(stack.core.db, { name: 'Market Page', rateLimit: 10_000 });
  const key = built.secret;
  const email = `market-${randomBytes(4).toString('hex')}@example.com`;
  await createUser(stack.core.db, { workspaceId: built.workspace.id, email, password: PASSWORD });
  const market = ok(await call<Json>(base, 'POST', '/v1/test_helpers/markets', { key, body: { title: TITLE, venue: 'sim-kalshi', fair_value: '0.4' } }), 'market');
  const subaccountId = ok(await call<Json>(base, 'POST', '/v1/subaccounts', { key, body: { name: 'market page' } }), 'subaccount').id as string;

  const get = async (path: string): Promise<Json> => ok(await call<Json>(base, 'GET', path, { key }), path);
  const order = async (body: Json): Promise<Json> =>
    ok(await call<Json>(base, 'POST', '/v1/orders', { key, body: { subaccount_id: subaccountId, market_id: market.id, ...body } }), 'order');
  const bought = await order({ side: 'yes', action: 'buy', type: 'market', quantity: '3' });
  expect(bought.status).toBe('filled');
  const firstFillId = (await get(`/v1/fills?order_id=${bought.id}`)).data[0].id as string;

  const consoleErrors: string[] = [];
  const browser: Browser = await launchChromium();
  const page: Page = await signedInPage(browser, base, email, PASSWORD, consoleErrors);
  await page.evaluate(() => ((window as unknown as { marketMark: string }).marketMark = 'not reloaded'));
  const byTest = (id: string): Locator => page.getByTestId(id);

  /** What of the page's quote differs from GET /v1/markets/{id}'s, as the page formats it; null when nothing. */
  async function quoteDifference(): Promise<string | null> {
    const api = await get(`/v1/markets/${market.id}`);
    for (const field of [...QUOTE_PRICES, ...QUOTE_QUANTITIES]) {
      const value = api[field] as string | null;
      const shown = byTest(`quote-${field}`);
      // A size is left out where its side is not quoted.
      if (value === null && field.endsWith('_size')) {
        if ((await shown.count()) > 0) return `${field}: shown, while the API has none`;
        continue;
      }
      const expected = (QUOTE_PRICES as readonly string[]).includes(field) ? formatPrice(value, market.tick_size) : formatQuantity(value);
      if ((await shown.count()) === 0) return `${field}: not shown (the API has ${value})`;
      const text = await textOf(shown);
      if (text !== expected) return `${field}: "${text}", the API's ${value} is "${expected}"`;
      const exact = await shown.locator('.figure').getAttribute('data-exact');
      if (value !== null && exact !== value) return `${field}: data-exact ${exact}, the API's ${value}`;
    }
    return null;
  }

  /** What of the depth chart's book differs from GET /v1/markets/{id}/orderbook's YES side (the page follows 20 levels); null when nothing. */
  async function bookDifference(): Promise<string | null> {
    const book = await get(`/v1/markets/${market.id}/orderbook?depth=20`);
    const chart = byTest('depth-chart');
    const shown = {
      bid: await chart.getAttribute('data-best-bid'),
      ask: await chart.getAttribute('data-best-ask'),
      bids: await chart.getAttribute('data-bid-levels'),
      asks: await chart.getAttribute('data-ask-levels'),
    };
    const api = { bid: book.yes.bids[0]?.price ?? null, ask: book.yes.asks[0]?.price ?? null, bids: String(book.yes.bids.length), asks: String(book.yes.asks.length) };
    const same = Number(shown.bid) === Number(api.bid) && Number(shown.ask) === Number(api.ask) && shown.bids === api.bids && shown.asks === api.asks;
    return same ? null : `the chart has ${JSON.stringify(shown)}, the API ${JSON.stringify(api)}`;
  }

  /** The chart is drawn (data-ready), and not blank: its canvas has pixels of more than two colours. */
  async function expectDrawn(testId: string) {
    await page.locator(`[data-testid="${testId}"][data-ready="true"]`).waitFor({ timeout: WAIT_MS });
    const canvas = byTest(testId).locator('canvas');
    const box = (await canvas.boundingBox())!;
    expect(box.width).toBeGreaterThan(200);
    expect(box.height).toBeGreaterThan(100);
    const colours = await canvas.evaluate((element) => {
      const c = element as HTMLCanvasElement;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 97) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]! | (data[i + 3]! << 24));
      return seen.size;
    });
    expect(colours).toBeGreaterThan(2);
  }

  /** The page was never loaded again: the mark set after signing in is there, and there was one navigation. */
  async function expectNotReloaded() {
    expect(await page.evaluate(() => (window as unknown as { marketMark?: string }).marketMark)).toBe('not reloaded');
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
  }

  const close = async () => {
    await browser.close();
    await stack.close();
  };
  return { stack, base, page, byTest, market, firstFillId, consoleErrors, get, order, quoteDifference, bookDifference, expectDrawn, expectNotReloaded, close };
}

type Fixture = Awaited<ReturnType<typeof marketPageFixture>>;

const textOf = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\u00a0/g, ' ').trim();

/**
 * The market page (`#/market/<id>`, docs/market-data.md read by the dashboard) in a real headless
 * Chromium against the real gateway and core: a test-helper market of the signed-in workspace is
 * traded through the REST API; its name in the Fills table leads to its page, which shows the
 * quote as GET /v1/markets/{id} has it, the depth chart of its book and the price chart of its
 * candles; a crossing order's trade then appears at the top of the trades table, the quote's last
 * price, the book and the candles follow, all from the stream and without a reload; a market that
 * is not the workspace's says so.
 */
describe('the market page in a browser', () => {
  let f: Fixture;
  let page: Page;
  let market: Json;
  const byTest = (id: string): Locator => f.byTest(id);

  beforeAll(async () => {
    // Streams last their default hour: nothing below comes from a reconnection's reads.
    f = await marketPageFixture();
    ({ page, market } = f);
  }, 120_000);

  afterAll(async () => {
    await f?.close();
  });

  it('the market name in the Fills table opens the market page: title, quote as the API has it, depth and price charts', async () => {
    await byTest('nav-fills').click();
    const link = byTest(`fill-row-${f.firstFillId}`).locator(`a.market[data-market-id="${market.id}"]`);
    await expectText(link.locator('.market-title'), TITLE); // the table's look is kept
    await link.click();

    await page.waitForFunction((id) => window.location.hash === `#/market/${id}`, market.id);
    await expectText(byTest('market-page').locator('h2'), TITLE);
    await expectText(byTest('market-venue'), 'sim-kalshi');
    await expectText(byTest('market-ticker'), market.venue_market_id);
    await expectText(byTest('market-status'), 'open');
    expect(await page.locator('nav [aria-current="page"]').count()).toBe(0); // not a section: no tab is current

    await page.locator('[data-testid="market-live"][data-state="live"]').waitFor({ timeout: WAIT_MS });
    await until(f.quoteDifference, 'the quote shown and GET /v1/markets/{id}');
    expect(await textOf(byTest('quote-as_of'))).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(await byTest('quote-stale').count()).toBe(0);

    await f.expectDrawn('depth-chart');
    await until(f.bookDifference, 'the depth chart and GET /v1/markets/{id}/orderbook');

    await f.expectDrawn('price-chart');
    expect(await byTest('price-chart').getAttribute('data-interval')).toBe('1m');
    expect(Number(await byTest('price-chart').getAttribute('data-candles'))).toBeGreaterThanOrEqual(1);
    await byTest('candles-interval-1h').click();
    await page.locator('[data-testid="price-chart"][data-interval="1h"][data-ready="true"]').waitFor({ timeout: WAIT_MS });
    await byTest('candles-interval-1m').click();
    await page.locator('[data-testid="price-chart"][data-interval="1m"][data-ready="true"]').waitFor({ timeout: WAIT_MS });

    const [newest] = (await f.get(`/v1/markets/${market.id}/trades?limit=1`)).data;
    await expectText(byTest('trades-table').locator('tbody tr').first(), formatPrice(newest.price, market.tick_size));
    expect(await byTest('trades-table').locator('tbody tr').first().getAttribute('data-testid')).toBe(`trade-row-${newest.id}`);
  }, 120_000);

  it('a crossing order’s trade appears at the top of the trades without a reload; the last price and the book follow', async () => {
    const lastBefore = (await f.get(`/v1/markets/${market.id}`)).last_price as string;
    expect(await textOf(byTest('quote-last_price'))).toBe(formatPrice(lastBefore, market.tick_size));

    // Buying NO at any price up to 0.70 takes the best YES bid (a NO ask at its complement): a trade below the last one, at the ask.
    const crossing = await f.order({ side: 'no', action: 'buy', type: 'limit', price: '0.7', quantity: '2' });
    expect(crossing.status).toBe('filled');
    const [trade] = (await f.get(`/v1/markets/${market.id}/trades?limit=1`)).data;
    expect(trade).toMatchObject({ quantity: '2', taker_side: 'no' });

    const top = byTest('trades-table').locator('tbody tr').first();
    await page.locator(`[data-testid="trades-table"] tbody tr:first-child[data-testid="trade-row-${trade.id}"]`).waitFor({ timeout: WAIT_MS });
    await expectText(top, formatPrice(trade.price, market.tick_size));
    await expectText(top, 'NO');

    await until(async () => {
      const shown = await textOf(byTest('quote-last_price'));
      const expected = formatPrice(trade.price, market.tick_size);
      return shown === expected && shown !== formatPrice(lastBefore, market.tick_size) ? null : `last price shown "${shown}", the trade's "${expected}"`;
    }, 'the quote’s last price after the trade');
    // Once GET /v1/markets/{id} (cached up to a second) has it too, the whole quote agrees again.
    await until(f.quoteDifference, 'the quote shown and GET /v1/markets/{id} after the trade');
    await until(f.bookDifference, 'the depth chart (moved by deltas) and GET /v1/markets/{id}/orderbook after the trade');
    // The candles are read again after the trade: the last one closes at its price.
    await until(async () => {
      const close = await byTest('price-chart').getAttribute('data-last-close');
      return Number(close) === Number(trade.price) ? null : `last close ${close}, the trade at ${trade.price}`;
    }, 'the price chart after the trade');
    await f.expectDrawn('price-chart');
    fs.mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: path.join(OUTPUT, 'dashboard-market-page.png'), fullPage: true });

    await f.expectNotReloaded();
  }, 120_000);

  it('a market that does not exist, or is another workspace’s, is said to be not found', async () => {
    const other = await buildWorkspace(f.stack.core.db, { name: 'Someone else', rateLimit: 10_000 });
    const theirs = ok(await call<Json>(f.base, 'POST', '/v1/test_helpers/markets', { key: other.secret, body: { title: 'Not yours?', venue: 'sim-kalshi' } }), 'their market');

    for (const id of ['mkt_00000000000000000000000000', theirs.id as string]) {
      await page.evaluate((hash) => (window.location.hash = hash), `#/market/${id}`);
      await expectText(byTest('market-not-found'), id);
      expect(await byTest('market-page').count()).toBe(0);
      expect(await byTest('error-banner').count()).toBe(0);
    }
    expect(await page.getByText('Not yours?').count()).toBe(0);

    // Back to a section: the Nav works as before.
    await byTest('nav-positions').click();
    await expectText(byTest('position-row-0'), TITLE);
    // The page's first look for a session (401) and the markets it was asked for that are not there (404) are what Chromium logs; nothing else.
    expect(f.consoleErrors.filter((text) => !/status of 40[14]/.test(text))).toEqual([]);
  }, 120_000);
});

/**
 * The market page's stream reconnects as useLiveEvents does: the gateway ends every stream after
 * 5 s here (EVENT_STREAM_MAX_AGE_MS), and the page opens it again; the new connection's snapshot
 * replaces the book, with what changed in between.
 */
describe('the market page when its stream ends', () => {
  let f: Fixture;
  let page: Page;
  let market: Json;
  const byTest = (id: string): Locator => f.byTest(id);

  beforeAll(async () => {
    f = await marketPageFixture({ EVENT_STREAM_MAX_AGE_MS: String(STREAM_MAX_AGE_MS) });
    ({ page, market } = f);
    await page.evaluate((hash) => (window.location.hash = hash), `#/market/${market.id}`);
    await expectText(byTest('market-page').locator('h2'), TITLE);
  }, 120_000);

  afterAll(async () => {
    await f?.close();
  });

  it('a stream that ends is opened again: its snapshot replaces the book, which stays current', async () => {
    const book = await f.get(`/v1/markets/${market.id}/orderbook?depth=1`);
    const price = (Number(book.yes.bids[0].price) + 0.01).toFixed(2);
    expect(Number(price)).toBeLessThan(Number(book.yes.asks[0].price));

    // Between two connections (the server's retry: 1 s) a bid better than the book's comes to rest:
    // no delta carries it, only the next connection's snapshot (or its delta, should the order be slow).
    await page.locator('[data-testid="market-live"][data-state="reconnecting"]').waitFor({ timeout: STREAM_MAX_AGE_MS + WAIT_MS });
    const resting = await f.order({ side: 'yes', action: 'buy', type: 'limit', price, quantity: '7' });
    expect(resting.status).toBe('open');
    await page.locator('[data-testid="market-live"][data-state="live"]').waitFor({ timeout: WAIT_MS });
    await until(async () => {
      const shown = await byTest('depth-chart').getAttribute('data-best-bid');
      return Number(shown) === Number(price) ? null : `best bid ${shown}, the order's ${price}`;
    }, 'the depth chart after reconnecting');
    await until(f.bookDifference, 'the depth chart and GET /v1/markets/{id}/orderbook after reconnecting');
    await until(f.quoteDifference, 'the quote shown and GET /v1/markets/{id} after reconnecting');
    await f.expectNotReloaded();
  }, 120_000);
});
