import { randomBytes, randomUUID } from 'node:crypto';
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { parseKeyring } from '../../core/domain/credentialVault';
import { openStoredCredential } from '../../core/db/storedCredentials';
import { attachCredential } from '../../core/services/accounts/credentials';
import { createSubaccount } from '../../core/services/accounts/subaccounts';
import { buildWorkspace } from '../support/factories';
import { runProcess, STACK_FRAME } from '../support/processes';
import { ownDatabase } from '../support/ownDatabase';

/**
 * Key rotation as an operator runs it: `npm run cli -- credentials rewrap` with the new KEK current
 * and the old one in CREDENTIALS_OLD_KEKS. A database of its own: rewrapping touches every row,
 * and other suites seal rows under keys this test does not know.
 */
const SLOW = 120_000;
const oldKek = randomBytes(32).toString('base64');
const newKek = randomBytes(32).toString('base64');
const polymarket = {
  private_key: `0x${randomBytes(31).toString('hex')}01`,
  api_key: randomUUID(),
  api_secret: randomBytes(32).toString('base64url'),
  api_passphrase: `PASS-${randomBytes(8).toString('hex')}`,
};

let url: string;
let db: Db;
let subaccountId: string;

const cli = (args: string[], env: Record<string, string>) => runProcess('bin/cli.ts', args, { DATABASE_URL: url, LOG_LEVEL: 'silent', ...env });

beforeAll(async () => {
  url = await ownDatabase('rewrap');
  db = createPrismaClient(url, 2);
  const { workspace } = await buildWorkspace(db);
  const scope = { workspaceId: workspace.id, environment: 'test' as const };
  subaccountId = (await createSubaccount(db, scope, { name: 'rotation' }, '1000')).id;
  const sealing = parseKeyring({ CREDENTIALS_KEK: oldKek, CREDENTIALS_KEK_ID: 'kek-old' });
  await attachCredential(db, sealing, scope, subaccountId, 'polymarket', polymarket);
}, SLOW);

afterAll(async () => {
  await db?.$disconnect();
});

describe('credentials rewrap', () => {
  it('without CREDENTIALS_KEK it refuses with the usage (exit 64) and changes nothing', async () => {
    const result = await cli(['credentials', 'rewrap'], { CREDENTIALS_OLD_KEKS: `kek-old:${oldKek}` });
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/credentials rewrap needs CREDENTIALS_KEK/);
    expect((await db.exchangeCredential.findFirstOrThrow({ where: { subaccountId } })).kekId).toBe('kek-old');
  }, SLOW);

  it('re-seals every blob under the new KEK, prints the count, and the old KEK is no longer needed', async () => {
    const rotated = { CREDENTIALS_KEK: newKek, CREDENTIALS_KEK_ID: 'kek-new', CREDENTIALS_OLD_KEKS: `kek-old:${oldKek}` };
    const first = await cli(['credentials', 'rewrap'], rotated);
    expect(first.stderr).not.toMatch(STACK_FRAME);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^1 credential\(s\) re-sealed under KEK 'kek-new'/);
    expect((await db.exchangeCredential.findFirstOrThrow({ where: { subaccountId } })).kekId).toBe('kek-new');
    const newOnly = parseKeyring({ CREDENTIALS_KEK: newKek, CREDENTIALS_KEK_ID: 'kek-new' });
    expect(await openStoredCredential(db, newOnly.keyring, subaccountId, 'polymarket')).toMatchObject(polymarket);
    // Nothing left to do: a second run re-seals nothing.
    const second = await cli(['credentials', 'rewrap'], rotated);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^0 credential\(s\) re-sealed/);
    // No secret in what the operator sees.
    for (const secret of [polymarket.api_secret, polymarket.api_passphrase, oldKek, newKek]) {
      expect(first.stdout + first.stderr + second.stdout + second.stderr).not.toContain(secret);
    }
  }, SLOW);
});
