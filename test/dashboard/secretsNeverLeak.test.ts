import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { createWorkspace } from '../../core/services/accounts/workspaces';
import { databaseUrl } from '../support/env';
import { call } from '../support/http';
import { asPage, signIn } from '../support/dashboardSession';
import { runProcess, startProcess, type ServiceProcess } from '../support/processes';

const run = promisify(execFile);

/** Every row of every table, as someone holding a backup would see it. */
async function dumpData(url: string): Promise<string> {
  const { stdout } = await run('/usr/bin/pg_dump', ['--data-only', '--no-password', `--dbname=${url}`], { maxBuffer: 1024 * 1024 * 1024 });
  return stdout;
}

/** The ways a secret could sit in a dump or a log: as it is, hex, base64 (standard and url-safe). */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [secret, bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')];
}

const pemBodyLines = (pem: string) => pem.split('\n').filter((line) => line.length > 20 && !line.startsWith('-----'));

/**
 * Secrets planted through every path that handles one, on the real `npm start` process with its
 * logs at trace level, then looked for in everything it printed (logs, and the CLI's output) and
 * in a data dump of the database: a user's password (CLI and sign-in), a wrong password, a
 * password change (a wrong current password, the new one), the session cookies, an API key's secret (shown once, then used and revoked), and venue credentials
 * (attached, refused for a bad shape, replaced, removed).
 */
describe('planted secrets never reach logs, later responses or the database in plaintext', () => {
  let db: Db;
  let service: ServiceProcess;
  let cliOutput = '';
  const responses: string[] = [];

  const password = `pw-${randomBytes(12).toString('hex')}`;
  const wrongPassword = `wrong-${randomBytes(12).toString('hex')}`;
  const newPassword = `new-pw-${randomBytes(12).toString('hex')}`;
  const wrongCurrentPassword = `wrong-current-${randomBytes(12).toString('hex')}`;
  const email = `leak-${randomBytes(4).toString('hex')}@example.com`;
  const rsaPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const polymarketKey = `0x${randomBytes(31).toString('hex')}01`;
  const apiSecret = randomBytes(32).toString('base64url');
  const passphrase = `phrase-${randomBytes(12).toString('hex')}`;
  const badShapeSecret = `bad-${randomBytes(12).toString('hex')}`;
  const planted: Record<string, string[]> = {};

  beforeAll(async () => {
    db = createPrismaClient(databaseUrl(), 2);
    service = await startProcess('bin/start.ts', {
      PORT: '0',
      DATABASE_URL: databaseUrl(),
      LOG_LEVEL: 'trace',
      CREDENTIALS_KEK: randomBytes(32).toString('base64'),
      SIGN_IN_ATTEMPTS_PER_MINUTE: '100',
    });
    const workspace = await createWorkspace(db, 'Leak check');
    const cli = await runProcess('bin/cli.ts', ['users', 'create', '--workspace', workspace.id, '--email', email], {
      DATABASE_URL: databaseUrl(),
      MK_USER_PASSWORD: password,
      LOG_LEVEL: 'trace',
    });
    expect(cli.code).toBe(0);
    cliOutput = cli.stdout + cli.stderr;

    const base = service.url;
    const keep = (response: { body: unknown }) => responses.push(JSON.stringify(response.body));
    keep(await call(base, 'POST', '/v1/session', { body: { email, password: wrongPassword } }));
    const page = await signIn(base, email, password);
    planted.cookie = [page.cookie.slice('mk_session='.length)];

    const created = await asPage(base, page, 'POST', '/v1/api_keys', { body: { name: 'leak test', environment: 'test' } });
    expect(created.status).toBe(200);
    const apiKeySecret: string = created.body.secret;
    planted.apiKey = [apiKeySecret];
    const subaccount = await call(base, 'POST', '/v1/subaccounts', { key: apiKeySecret, body: { name: 'leaky' } });
    keep(subaccount);
    keep(await call(base, 'GET', '/v1/orders?limit=nope', { key: apiKeySecret }));
    keep(await call(base, 'POST', '/v1/orders', { key: apiKeySecret, rawBody: '{"broken', headers: { 'content-type': 'application/json' } }));

    const credentials = (exchange: string) => `/v1/subaccounts/${subaccount.body.id}/credentials/${exchange}`;
    keep(await asPage(base, page, 'PUT', credentials('kalshi'), { body: { key_id: randomUUID(), private_key: rsaPem, environment: 'production' } }));
    keep(await asPage(base, page, 'PUT', credentials('kalshi'), { body: { key_id: randomUUID(), private_key: badShapeSecret, environment: 'demo' } }));
    keep(await asPage(base, page, 'PUT', credentials('polymarket'), { body: { private_key: polymarketKey, api_key: randomUUID(), api_secret: apiSecret, api_passphrase: passphrase } }));
    keep(await asPage(base, page, 'PUT', credentials('polymarket'), { body: { private_key: polymarketKey, api_key: 'not-a-uuid', api_secret: apiSecret, api_passphrase: passphrase } }));
    // CLOB V2: the key alone (API credentials derived later; the answer shows its signer address),
    // and refused shapes naming a field: a 1271 wallet without its funder, the key pasted as funder.
    keep(await asPage(base, page, 'PUT', credentials('polymarket'), { body: { private_key: polymarketKey } }));
    keep(await asPage(base, page, 'PUT', credentials('polymarket'), { body: { private_key: polymarketKey, signature_type: 'POLY_1271' } }));
    keep(await asPage(base, page, 'PUT', credentials('polymarket'), { body: { private_key: polymarketKey, signature_type: 1, funder_address: polymarketKey } }));
    keep(await asPage(base, page, 'GET', `/v1/subaccounts/${subaccount.body.id}`));
    keep(await asPage(base, page, 'GET', '/v1/api_keys'));
    keep(await asPage(base, page, 'DELETE', credentials('polymarket')));
    keep(await asPage(base, page, 'DELETE', `/v1/api_keys/${created.body.key.id}`));
    keep(await call(base, 'GET', '/v1/orders', { key: apiKeySecret }));
    // The password changed (after a wrong current one), then used to sign in, then everywhere out.
    keep(await asPage(base, page, 'PUT', '/v1/session/password', { body: { current_password: wrongCurrentPassword, new_password: newPassword } }));
    keep(await asPage(base, page, 'PUT', '/v1/session/password', { body: { current_password: password, new_password: newPassword } }));
    const again = await signIn(base, email, newPassword);
    planted.secondCookie = [again.cookie.slice('mk_session='.length)];
    keep(await asPage(base, again, 'DELETE', '/v1/sessions'));
    keep(await asPage(base, page, 'DELETE', '/v1/session'));

    Object.assign(planted, {
      password: [password],
      wrongPassword: [wrongPassword],
      newPassword: [newPassword],
      wrongCurrentPassword: [wrongCurrentPassword],
      rsaPrivateKey: pemBodyLines(rsaPem),
      polymarketPrivateKey: [polymarketKey, polymarketKey.slice(2)],
      polymarketApiSecret: [apiSecret],
      polymarketPassphrase: [passphrase],
      badShapeSecret: [badShapeSecret],
    });
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await db?.$disconnect();
  });

  it('the process logged every request, and none of the secrets', () => {
    const logs = service.output();
    // The logs are there to be searched: one access line per request, at least.
    expect(logs.match(/"msg":"request"/g)?.length ?? 0).toBeGreaterThanOrEqual(14);
    expect(logs).toContain('"path":"/v1/api_keys"');
    for (const [name, values] of Object.entries(planted)) {
      for (const value of values.flatMap(encodings)) {
        if (logs.includes(value)) throw new Error(`the logs hold the planted ${name}`);
        if (cliOutput.includes(value)) throw new Error(`the CLI printed the planted ${name}`);
      }
    }
  });

  it('no response after creation carries a secret', () => {
    const later = responses.join('\n');
    expect(later).toContain('fingerprint'); // the credential answers are among them
    expect(later).toContain('"environment":"production"'); // the Kalshi environment is shown: it is not secret
    for (const [name, values] of Object.entries(planted)) {
      for (const value of values) if (later.includes(value)) throw new Error(`a response holds the planted ${name}`);
    }
  });

  it('a data dump of the database holds none of them, in any encoding', async () => {
    const dump = await dumpData(databaseUrl());
    expect(dump).toContain(email); // the dump is of the database the service wrote
    for (const [name, values] of Object.entries(planted)) {
      for (const value of values.flatMap(encodings)) {
        if (dump.includes(value)) throw new Error(`the database dump holds the planted ${name}`);
      }
    }
  });
});
