import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Without the background-networking flags Chromium reaches for Google's hosts, which this closed network refuses. */
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

/** Debian's headless Chromium, driven by playwright-core (nothing downloaded). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** Waits until the element shows `expected` (its text, no-break spaces read as spaces), or fails after 10 s with what it showed. */
export async function expectText(locator: ReturnType<Page['getByTestId']>, expected: string | RegExp): Promise<void> {
  await locator.waitFor();
  const deadline = Date.now() + 10_000;
  let text = '';
  while (Date.now() < deadline) {
    text = ((await locator.textContent()) ?? '').replace(/\u00a0/g, ' '); // editors render spaces as no-break spaces
    if (typeof expected === 'string' ? text.includes(expected) : expected.test(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`expected ${String(expected)} in "${text}"`);
}

/**
 * A page of its own (1280 x 900) signed in to the dashboard at `base` as `email`; the page's console
 * errors go to `consoleErrors`. Resolves once the workspace's name shows.
 */
export async function signedInPage(browser: Browser, base: string, email: string, password: string, consoleErrors: string[] = []): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
  await page.goto(`${base}/`);
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
  await page.getByTestId('workspace-name').waitFor();
  return page;
}
