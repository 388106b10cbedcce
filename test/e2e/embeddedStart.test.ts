import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call } from '../support/http';
import { runProcess, startProcess, type ServiceProcess } from '../support/processes';

/** What a new user does: `npm start` on a fresh machine (embedded PGlite), then curl and the CLI. */
describe('npm start on the embedded database', () => {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mkapi-')), 'pglite');
  const env = { PGLITE_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: '', REDIS_URL: '' };
  let service: ServiceProcess | undefined;
  afterAll(async () => {
    await service?.stop();
  });

  it('prints a test key once that lists markets, lets the CLI in while running, and keeps its data across a restart', async () => {
    service = await startProcess('bin/start.ts', env);
    await waitFor(() => /mk_test_/.test(service!.output()));
    const key = /mk_test_[0-9A-Za-z]{40}/.exec(service.output())![0];
    const markets = await call(service.url, 'GET', '/v1/markets', { key });
    expect(markets.status).toBe(200);
    expect(markets.body.data.length).toBeGreaterThan(0);
    expect(markets.body).toHaveProperty('has_more');
    const dashboardToken = /mk_dash_[0-9A-Za-z]+/.exec(service.output())![0];
    const analyst = await call(service.url, 'POST', '/analyst/graphql', { key: dashboardToken, body: { query: '{ workspace { id } }' } });
    expect(analyst.status).toBe(200);
    expect(analyst.body.data.workspace.id).toMatch(/^ws_/);

    const cli = await runProcess('bin/cli.ts', ['workspaces', 'create', 'Second'], env);
    expect(cli.stderr).toBe('');
    expect(cli.stdout.trim()).toMatch(/^ws_[0-9a-z]{26}$/);
    expect(cli.code).toBe(0);

    // Without CREDENTIALS_KEK, the embedded database seals secrets with a key of its own: webhooks work.
    const hook = { url: 'https://example.com/hooks', event_types: ['order.*'] };
    const registered = await call(service.url, 'POST', '/v1/webhook_endpoints', { key, body: hook });
    expect(registered.status).toBe(200);
    expect(registered.body.secret).toMatch(/^whsec_/);
    const kekFile = `${dataDir}.kek`;
    expect(fs.statSync(kekFile).mode & 0o777).toBe(0o600);
    const kek = fs.readFileSync(kekFile, 'utf8');

    expect(await service.stop()).toBe(0);
    expect(fs.existsSync(`${dataDir}.server.json`)).toBe(false);
    service = await startProcess('bin/start.ts', env);
    expect((await call(service.url, 'GET', '/v1/markets', { key })).status).toBe(200);
    expect(service.output()).not.toMatch(/mk_test_/); // the key is shown once, on the first start only
    // The same key after a restart: the endpoint's sealed secret still opens (a rotation needs it).
    expect(fs.readFileSync(kekFile, 'utf8')).toBe(kek);
    const rotated = await call(service.url, 'POST', `/v1/webhook_endpoints/${registered.body.endpoint.id}/rotate_secret`, { key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
  }, 120_000);
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000) {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
