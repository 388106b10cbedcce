/**
 * The README, run as written: its first session and the ways to try the live venues on their fakes,
 * command for command (test/support/readme.ts: the blocks marked `<!-- readme: <session> -->`), on
 * a fresh embedded start as a new user's `npm start`, each session on a data directory and port of
 * its own. Then what the README says should be there is checked through the API: an order filled,
 * a position, realized P&L; and a README command broken on purpose fails the run, naming it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, closedPort } from '../support/http';
import { startProcess, type ServiceProcess } from '../support/processes';
import { Background, readmeBlocks, runBlocks, type ReadmeBlock } from '../support/readme';
import { until } from '../support/retryingClients';

jest.setTimeout(600_000);

const ROOT = path.resolve(__dirname, '../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const blocksOf = (session: string) => readmeBlocks(README).filter((block) => block.session === session);

/** A new user's machine: no database or Redis configured, a data directory of its own, a free port. */
async function freshEnv(): Promise<{ env: NodeJS.ProcessEnv; dataDir: string; api: string }> {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mkapi-readme-')), 'pglite');
  const port = await closedPort();
  const api = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), PGLITE_DATA_DIR: dataDir, API: api };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'CREDENTIALS_KEK', 'NODE_OPTIONS', 'LOG_LEVEL']) delete env[name];
  return { env, dataDir, api };
}

/**
 * What `npm start` prints once on an empty database, as the line the README says to paste: the test
 * key, the dashboard token, the workspace and the service's address.
 */
function printedSecrets(output: string): { KEY: string; DASH: string; WS: string; API: string } {
  const line = /^\s*KEY=(mk_test_[0-9A-Za-z]{40})\s+DASH=(mk_dash_[0-9A-Za-z]{40})\s+WS=(ws_[0-9a-z]+)\s+API=(http:\/\/\S+)$/m.exec(output);
  if (!line) throw new Error(`npm start printed no line to paste:\n${output.slice(-2000)}`);
  return { KEY: line[1]!, DASH: line[2]!, WS: line[3]!, API: line[4]! };
}

function expectRan(run: Awaited<ReturnType<typeof runBlocks>>) {
  if (run.code !== 0) {
    const where = run.failedBlock ? `the block at README line ${run.failedBlock.line}` : 'a block';
    throw new Error(`${where} failed (exit ${run.code}):\n${run.output.slice(-4000)}`);
  }
}

describe('the test environment, from the README alone', () => {
  let service: ServiceProcess | undefined;
  let env: NodeJS.ProcessEnv;
  let api: string;
  afterAll(() => service?.stop());

  it('runs the first session, trading, limits, the dead-man’s switch, events, webhooks and complex orders as written', async () => {
    const fresh = await freshEnv();
    api = fresh.api;
    // `npm start`, as the README's first command (the compiled entry point `npm start` runs, on this machine's fresh data directory).
    service = await startProcess('bin/start.ts', { ...(fresh.env as Record<string, string>), KALSHI_CATALOG_SYNC_MS: '0' });
    await until('the line to paste', 60_000, async () => (/API=http/.test(service!.output()) ? true : undefined));
    env = { ...fresh.env, ...printedSecrets(service.output()) };
    expect(env.API).toBe(api);
    const blocks = blocksOf('test-environment');
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const run = await runBlocks(blocks, env, ROOT);
    expectRan(run);

    // What the README says happened.
    const key = env.KEY!;
    const subaccounts = (await call(api, 'GET', '/v1/subaccounts', { key })).body.data as { id: string; name: string }[];
    const alpha = subaccounts.find((s) => s.name === 'alpha')!;
    const orders = (await call(api, 'GET', `/v1/orders?subaccount_id=${alpha.id}&limit=200`, { key })).body.data as { status: string; type: string; price: string; quantity: string }[];
    expect(orders.filter((o) => o.type === 'market' && o.status === 'filled').length).toBeGreaterThanOrEqual(2);
    // The limit order was amended twice (6 contracts, then 0.39), then canceled.
    expect(orders).toContainEqual(expect.objectContaining({ type: 'limit', status: 'canceled', price: '0.39', quantity: '6' }));
    const positions = (await call(api, 'GET', `/v1/positions?subaccount_id=${alpha.id}`, { key })).body.data as { quantity: string }[];
    expect(positions.length).toBeGreaterThan(0);
    expect((await call(api, 'GET', '/v1/webhook_endpoints', { key })).body.data.length).toBe(1);
    // The 5,000-contract sweep was previewed as refused by the $250 limit, then placed once the limit was lifted.
    expect(run.output).toMatch(/Order notional [\d.]+ exceeds max_order_notional 250\./);
    const complex = (await call(api, 'GET', '/v1/complex_orders', { key })).body.data as { status: string; quantity: string }[];
    expect(complex).toEqual([expect.objectContaining({ quantity: '5000', status: 'completed' })]);
    // The first settlement: the market of one's own settled yes, each YES contract bought paid 1.
    const settlements = (await call(api, 'GET', '/v1/settlements', { key })).body.data as { result: string; yes_quantity: string; payout: string }[];
    expect(settlements).toEqual([expect.objectContaining({ result: 'yes', yes_quantity: '10', payout: '10' })]);
    // The kill switch the README turned on is off again: an order is taken.
    const market = (await call(api, 'GET', '/v1/markets?q=fed&limit=1', { key })).body.data[0].id as string;
    const order = await call(api, 'POST', '/v1/orders', { key, body: { subaccount_id: alpha.id, market_id: market, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' } });
    expect(order.body).toMatchObject({ status: 'open' });
  });

  it('fails, naming the block, when a README command is broken', async () => {
    const [first] = blocksOf('test-environment');
    const broken: ReadmeBlock = { ...first!, code: first!.code.replace('/v1/subaccounts', '/v1/subaccountz') };
    expect(broken.code).not.toBe(first!.code);
    const run = await runBlocks([broken], env, ROOT);
    expect(run.code).not.toBe(0);
    expect(run.failedBlock?.line).toBe(first!.line);
    expect(run.output).toMatch(/returned error: 404/);
  });
});

describe.each([
  { session: 'kalshi-fake', venue: 'kalshi' },
  { session: 'polymarket-fake', venue: 'polymarket' },
])('live trading on the $venue fake, from the README alone', ({ session }) => {
  const background = new Background();
  afterAll(() => background.stop());

  it('starts the fake and the service as written, attaches the credential, and a live order ends with a fill, a position and P&L', async () => {
    const { env, api } = await freshEnv();
    const blocks = blocksOf(session);
    const starts = blocks.filter((block) => block.background);
    expect(starts.length).toBeGreaterThan(0);
    for (const block of starts) background.start(block, env, ROOT);
    // Not listening yet: the fetch fails, which is a "not yet".
    await until('the service ready', 240_000, async () => ((await fetch(`${api}/readyz`).catch(() => undefined))?.status === 200 ? true : undefined));
    const secrets = await until('the line to paste', 60_000, async () => (/API=http/.test(background.output) ? printedSecrets(background.output) : undefined));
    expect(secrets.API).toBe(api);
    const run = await runBlocks(
      blocks.filter((block) => !block.background),
      { ...env, ...secrets },
      ROOT,
    );
    expectRan(run);
    // The README's last commands printed the live position and P&L; read them back.
    const live = /^LIVE=(mk_live_[0-9A-Za-z]{40})$/m.exec(run.output)?.[1];
    expect(live).toBeDefined();
    const subaccounts = (await call(api, 'GET', '/v1/subaccounts', { key: live })).body.data as { id: string }[];
    expect(subaccounts.length).toBe(1);
    const fills = (await call(api, 'GET', `/v1/fills?subaccount_id=${subaccounts[0]!.id}`, { key: live })).body.data as unknown[];
    expect(fills.length).toBeGreaterThan(0);
    const positions = (await call(api, 'GET', `/v1/positions?subaccount_id=${subaccounts[0]!.id}`, { key: live })).body.data as { quantity: string; realized_pnl: string; unrealized_pnl: string | null }[];
    expect(positions.length).toBe(1);
    expect(Number(positions[0]!.quantity)).toBeGreaterThan(0);
    expect(positions[0]!.realized_pnl).toMatch(/^-?\d/);
  });
});
