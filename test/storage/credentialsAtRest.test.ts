import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { privateKeyToAccount } from 'viem/accounts';
import type { Config } from '../../core/config';
import { CredentialVaultError, parseKeyring, sealCredential, type CredentialKeys } from '../../core/domain/credentialVault';
import { kalshiEnvironmentOf } from '../../core/domain/credentialShapes';
import { DomainError } from '../../core/domain/errors';
import {
  attachCredential,
  deleteCredential,
  listCredentials,
  rewrapStoredCredentials,
} from '../../core/services/accounts/credentials';
import { openStoredCredential } from '../../core/db/storedCredentials';
import type { Scope } from '../../core/services/scope';
import { createSubaccount } from '../../core/services/accounts/subaccounts';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { startStack, type Stack } from '../support/stack';

const run = promisify(execFile);

/** Every row of every table, as an attacker with a backup would see it. */
async function dumpData(url: string): Promise<string> {
  const { stdout } = await run('/usr/bin/pg_dump', ['--data-only', '--no-password', `--dbname=${url}`], { maxBuffer: 1024 * 1024 * 1024 });
  return stdout;
}

/** Runs `fn`, expecting a DomainError; answers it. */
async function domainError(fn: () => Promise<unknown>): Promise<DomainError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError');
}

const pemBodyLines = (pem: string) => pem.split('\n').filter((line) => line.length > 0 && !line.startsWith('-----'));

/**
 * Venue credentials at rest, against real PostgreSQL: sealed before they reach the database, so
 * a full data dump holds none of the secrets in any encoding; only the fingerprint is readable.
 */
describe('exchange credentials at rest', () => {
  let stack: Stack;
  let config: Config;
  let keys: CredentialKeys;
  let scope: Scope;
  let subaccountId: string;

  const marker = `SECRET-MARKER-${randomBytes(12).toString('hex')}`;
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const pkcs1 = rsa.export({ type: 'pkcs1', format: 'pem' }) as string;
  const pkcs8 = rsa.export({ type: 'pkcs8', format: 'pem' }) as string;
  const pkcs8Der = rsa.export({ type: 'pkcs8', format: 'der' });
  const kalshi = { key_id: randomUUID(), private_key: pkcs1, environment: 'production' };
  const scalar = `${randomBytes(31).toString('hex')}01`; // below the curve order: its top byte is < 0xff
  const polymarket = {
    private_key: `0x${scalar}`,
    api_key: randomUUID(),
    api_secret: randomBytes(32).toString('base64url'),
    api_passphrase: marker,
  };

  beforeAll(async () => {
    config = testConfig({ CREDENTIALS_KEK: randomBytes(32).toString('base64'), CREDENTIALS_KEK_ID: 'kek-at-rest-1' });
    stack = await startStack(config);
    keys = parseKeyring(config);
    const { workspace } = await buildWorkspace(stack.core.db);
    scope = { workspaceId: workspace.id, environment: 'test' };
    subaccountId = (await createSubaccount(stack.core.db, scope, { name: 'vault' }, '1000')).id;
  });
  afterAll(() => stack.close());

  it('attaches Kalshi and Polymarket credentials and answers metadata only', async () => {
    const before = Date.now();
    const k = await attachCredential(stack.core.db, keys, scope, subaccountId, 'kalshi', kalshi);
    const p = await attachCredential(stack.core.db, keys, scope, subaccountId, 'polymarket', polymarket);
    expect(Object.keys(k).sort()).toEqual(['createdAt', 'environment', 'exchange', 'fingerprint', 'kekId', 'subaccountId']);
    expect(k).toMatchObject({ subaccountId, exchange: 'kalshi', kekId: 'kek-at-rest-1', environment: 'production' });
    expect(p).toMatchObject({ subaccountId, exchange: 'polymarket', kekId: 'kek-at-rest-1', environment: null });
    expect(k.fingerprint).toMatch(new RegExp(`^sha256:[0-9a-f]{16} key_id=${kalshi.key_id}$`));
    // Polymarket: the signer address derived from the key (CLOB V2), never the key.
    expect(p.fingerprint).toBe(privateKeyToAccount(polymarket.private_key as `0x${string}`).address);
    expect(k.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const answered = JSON.stringify([k, p]);
    for (const secret of [marker, scalar, polymarket.api_secret, ...pemBodyLines(pkcs1)]) expect(answered).not.toContain(secret);
  });

  it('the plaintext is nowhere in a full data dump of the database: not as text, hex or base64', async () => {
    // Control: the dump would show a secret stored as plain bytes (bytea prints as hex).
    const control = await createSubaccount(stack.core.db, scope, { name: 'vault-control' }, '1000');
    const controlMarker = `CONTROL-${randomBytes(8).toString('hex')}`;
    await stack.core.db.exchangeCredential.create({
      data: { id: `cred_control${Date.now()}`, subaccountId: control.id, exchange: 'kalshi', kekId: 'none', fingerprint: 'control', ciphertext: new Uint8Array(Buffer.from(controlMarker)) },
    });
    try {
      expect(await dumpData(stack.core.databaseUrl)).toContain(Buffer.from(controlMarker).toString('hex'));
    } finally {
      await stack.core.db.exchangeCredential.deleteMany({ where: { subaccountId: control.id } });
    }

    const dump = await dumpData(stack.core.databaseUrl);
    // The dump does hold the rows: their fingerprints are readable, their blobs are bytea.
    const rows = await stack.core.db.exchangeCredential.findMany({ where: { subaccountId } });
    expect(rows).toHaveLength(2);
    expect(dump).toContain('exchange_credentials');
    for (const row of rows) {
      expect(dump).toContain(row.fingerprint);
      expect(dump).toContain(`\\\\x${Buffer.from(row.ciphertext).toString('hex')}`);
      expect(row.ciphertext[0]).toBe(1);
    }
    const lower = dump.toLowerCase();
    const forbidden: string[] = [
      marker,
      Buffer.from(marker).toString('hex'),
      Buffer.from(marker).toString('base64'),
      Buffer.from(marker).toString('base64').slice(4, 24), // base64 at any alignment still shares a long run
      Buffer.from(marker.slice(1)).toString('base64').slice(4, 24),
      Buffer.from(marker.slice(2)).toString('base64').slice(4, 24),
      scalar,
      Buffer.from(scalar).toString('hex'),
      polymarket.api_secret,
      Buffer.from(polymarket.api_secret).toString('hex'),
      ...pemBodyLines(pkcs1),
      ...pemBodyLines(pkcs8),
      // The key's DER as bytea would show it: a 32-byte window from the private part, in hex.
      pkcs8Der.subarray(200, 232).toString('hex'),
      Buffer.from(pemBodyLines(pkcs8)[5]).toString('hex'),
    ];
    for (const secret of forbidden) {
      expect(dump.includes(secret) || lower.includes(secret.toLowerCase())).toBe(false);
    }
  });

  it('lists fingerprints only, and opens the originals for the venue adapters', async () => {
    const listed = await listCredentials(stack.core.db, scope, subaccountId);
    expect(listed.map((c) => [c.exchange, c.environment])).toEqual([
      ['kalshi', 'production'],
      ['polymarket', null],
    ]);
    for (const item of listed) expect(Object.keys(item).sort()).toEqual(['createdAt', 'environment', 'exchange', 'fingerprint', 'kekId', 'subaccountId']);
    expect(JSON.stringify(listed)).not.toContain(marker);

    const openedKalshi = await openStoredCredential(stack.core.db, keys.keyring, subaccountId, 'kalshi');
    // Normalized to PKCS#8: the same key as pasted.
    expect(openedKalshi).toEqual({ key_id: kalshi.key_id, private_key: pkcs8, environment: 'production' });
    const openedPolymarket = await openStoredCredential(stack.core.db, keys.keyring, subaccountId, 'polymarket');
    // Normalized: the EOA signature type and the signer as funder, stated.
    expect(openedPolymarket).toEqual({ ...polymarket, signature_type: 0, funder_address: privateKeyToAccount(polymarket.private_key as `0x${string}`).address });
  });

  it('a Kalshi credential sealed before the environment was asked lists and opens without one: unknown, to be attached again', async () => {
    const legacy = (await createSubaccount(stack.core.db, scope, { name: 'vault-legacy' }, '1000')).id;
    const keyId = randomUUID();
    // What attach stored before: the canonical JSON of { key_id, private_key }, no environment column.
    const sealed = sealCredential(JSON.stringify({ key_id: keyId, private_key: pkcs8 }), keys.current!, `${legacy}:kalshi`);
    await stack.core.db.exchangeCredential.create({
      data: { id: `cred_legacy${Date.now()}`, subaccountId: legacy, exchange: 'kalshi', kekId: sealed.kekId, fingerprint: 'legacy', ciphertext: new Uint8Array(sealed.ciphertext) },
    });
    expect((await listCredentials(stack.core.db, scope, legacy)).map((c) => c.environment)).toEqual([null]);
    const opened = await openStoredCredential(stack.core.db, keys.keyring, legacy, 'kalshi');
    expect(kalshiEnvironmentOf(opened)).toBeNull();
    // Attaching again with its environment makes it known.
    const again = await attachCredential(stack.core.db, keys, scope, legacy, 'kalshi', { key_id: keyId, private_key: pkcs8, environment: 'demo' });
    expect(again.environment).toBe('demo');
    expect(kalshiEnvironmentOf(await openStoredCredential(stack.core.db, keys.keyring, legacy, 'kalshi'))).toBe('demo');
    // The column holds only Kalshi's environments.
    await expect(stack.core.db.$executeRaw`UPDATE exchange_credentials SET environment = 'staging' WHERE subaccount_id = ${legacy}`).rejects.toThrow();
  });

  it('a blob copied to another subaccount does not open there', async () => {
    const other = (await createSubaccount(stack.core.db, scope, { name: 'vault-copy' }, '1000')).id;
    await attachCredential(stack.core.db, keys, scope, other, 'kalshi', { key_id: randomUUID(), private_key: pkcs8, environment: 'demo' });
    const original = await stack.core.db.exchangeCredential.findUniqueOrThrow({ where: { subaccountId_exchange: { subaccountId, exchange: 'kalshi' } } });
    await stack.core.db.exchangeCredential.update({
      where: { subaccountId_exchange: { subaccountId: other, exchange: 'kalshi' } },
      data: { ciphertext: original.ciphertext, kekId: original.kekId },
    });
    await expect(openStoredCredential(stack.core.db, keys.keyring, other, 'kalshi')).rejects.toMatchObject({ code: 'authentication_failed' });
    await expect(openStoredCredential(stack.core.db, keys.keyring, other, 'kalshi')).rejects.toBeInstanceOf(CredentialVaultError);
    // Nor as the other exchange of the same subaccount.
    const poly = await stack.core.db.exchangeCredential.findUniqueOrThrow({ where: { subaccountId_exchange: { subaccountId, exchange: 'polymarket' } } });
    await attachCredential(stack.core.db, keys, scope, other, 'polymarket', polymarket);
    await stack.core.db.exchangeCredential.update({
      where: { subaccountId_exchange: { subaccountId: other, exchange: 'polymarket' } },
      data: { ciphertext: original.ciphertext },
    });
    await expect(openStoredCredential(stack.core.db, keys.keyring, other, 'polymarket')).rejects.toMatchObject({ code: 'authentication_failed' });
    expect(poly.ciphertext).not.toEqual(original.ciphertext);
  });

  it('attaching again replaces the stored credentials', async () => {
    const other = await createSubaccount(stack.core.db, scope, { name: 'vault-replace' }, '1000');
    const first = await attachCredential(stack.core.db, keys, scope, other.id, 'polymarket', polymarket);
    // Another wallet: the fingerprint is the signer address, so a new key shows.
    const replacement = { ...polymarket, private_key: `0x${randomBytes(31).toString('hex')}02`, api_key: randomUUID(), api_passphrase: `replacement-${marker}` };
    const second = await attachCredential(stack.core.db, keys, scope, other.id, 'polymarket', replacement);
    expect(second.fingerprint).not.toBe(first.fingerprint);
    expect(await stack.core.db.exchangeCredential.count({ where: { subaccountId: other.id } })).toBe(1);
    expect(await listCredentials(stack.core.db, scope, other.id)).toEqual([second]);
    expect(await openStoredCredential(stack.core.db, keys.keyring, other.id, 'polymarket')).toMatchObject(replacement);
    expect(await deleteCredential(stack.core.db, scope, other.id, 'polymarket')).toMatchObject({ deleted: true });
    expect((await domainError(() => openStoredCredential(stack.core.db, keys.keyring, other.id, 'polymarket'))).code).toBe('not_found');
  });

  it("another workspace's subaccount is not_found, for attach and list alike", async () => {
    const { workspace } = await buildWorkspace(stack.core.db);
    const foreign: Scope = { workspaceId: workspace.id, environment: 'test' };
    const attach = await domainError(() => attachCredential(stack.core.db, keys, foreign, subaccountId, 'kalshi', kalshi));
    expect(attach.code).toBe('not_found');
    expect(attach.status).toBe(404);
    expect((await domainError(() => listCredentials(stack.core.db, foreign, subaccountId))).code).toBe('not_found');
    // The same workspace's other environment is another scope too.
    expect((await domainError(() => listCredentials(stack.core.db, { ...scope, environment: 'live' }, subaccountId))).code).toBe('not_found');
    // Nothing was replaced.
    expect(await openStoredCredential(stack.core.db, keys.keyring, subaccountId, 'kalshi')).toEqual({ key_id: kalshi.key_id, private_key: pkcs8, environment: 'production' });
  });

  it('a bad shape is invalid_request naming the field, and the message holds none of the secret', async () => {
    const cases: [string, Record<string, unknown>, string, string[]][] = [
      ['kalshi', { key_id: kalshi.key_id, private_key: pkcs1.replace(/\n[A-Za-z0-9+/]{64}\n/, '\n') }, 'private_key', pemBodyLines(pkcs1)],
      ['kalshi', { key_id: `${marker}`, private_key: pkcs1 }, 'key_id', [marker, ...pemBodyLines(pkcs1)]],
      ['kalshi', { key_id: kalshi.key_id, private_key: pkcs1 }, 'environment', pemBodyLines(pkcs1)],
      ['kalshi', { ...kalshi, environment: 'live' }, 'environment', pemBodyLines(pkcs1)],
      ['polymarket', { ...polymarket, private_key: `0x${scalar.slice(1)}` }, 'private_key', [scalar.slice(1), marker]],
      ['polymarket', { ...polymarket, api_secret: `${marker}!` }, 'api_secret', [marker, scalar]],
      ['polymarket', { ...polymarket, api_passphrase: `${marker}\r\n` + 'X: 1' }, 'api_passphrase', [marker, scalar]],
    ];
    const before = await stack.core.db.exchangeCredential.findMany({ where: { subaccountId }, orderBy: { exchange: 'asc' } });
    for (const [exchange, input, param, secrets] of cases) {
      const error = await domainError(() => attachCredential(stack.core.db, keys, scope, subaccountId, exchange as 'kalshi', input));
      expect({ code: error.code, status: error.status, param: error.param }).toEqual({ code: 'invalid_request', status: 400, param });
      for (const secret of secrets) expect(error.message).not.toContain(secret);
    }
    // The stored credentials are untouched.
    expect(await stack.core.db.exchangeCredential.findMany({ where: { subaccountId }, orderBy: { exchange: 'asc' } })).toEqual(before);
  });

  it('without CREDENTIALS_KEK nothing is stored: forbidden, telling the operator what to set', async () => {
    const none = parseKeyring({ CREDENTIALS_KEK_ID: 'kek1' });
    const other = await createSubaccount(stack.core.db, scope, { name: 'vault-nokek' }, '1000');
    const error = await domainError(() => attachCredential(stack.core.db, none, scope, other.id, 'polymarket', polymarket));
    expect(error.code).toBe('forbidden');
    expect(error.message).toMatch(/CREDENTIALS_KEK/);
    expect(await stack.core.db.exchangeCredential.count({ where: { subaccountId: other.id } })).toBe(0);
  });

  it('rotation: rewrapping re-seals every blob under the new KEK; the old KEK is then no longer needed', async () => {
    const rotated = parseKeyring({
      CREDENTIALS_KEK: randomBytes(32).toString('base64'),
      CREDENTIALS_KEK_ID: 'kek-at-rest-2',
      CREDENTIALS_OLD_KEKS: `kek-at-rest-1:${config.CREDENTIALS_KEK}`,
    });
    // Before the rewrap the new configuration opens the old blobs through the old key.
    expect(await openStoredCredential(stack.core.db, rotated.keyring, subaccountId, 'polymarket')).toMatchObject(polymarket);
    expect(await rewrapStoredCredentials(stack.core.db, rotated, { subaccountId, batchSize: 1 })).toEqual({ rewrapped: 2 });
    expect(await rewrapStoredCredentials(stack.core.db, rotated, { subaccountId })).toEqual({ rewrapped: 0 });
    const listed = await listCredentials(stack.core.db, scope, subaccountId);
    expect(listed.map((c) => c.kekId)).toEqual(['kek-at-rest-2', 'kek-at-rest-2']);
    const newOnly = new Map([['kek-at-rest-2', rotated.current!.key]]);
    expect(await openStoredCredential(stack.core.db, newOnly, subaccountId, 'polymarket')).toMatchObject(polymarket);
    expect(await openStoredCredential(stack.core.db, newOnly, subaccountId, 'kalshi')).toEqual({ key_id: kalshi.key_id, private_key: pkcs8, environment: 'production' });
    // The old configuration alone can no longer open them: a clear error naming the KEK id.
    await expect(openStoredCredential(stack.core.db, keys.keyring, subaccountId, 'kalshi')).rejects.toMatchObject({
      code: 'unknown_kek',
      message: expect.stringContaining("'kek-at-rest-2'"),
    });
    // Still nothing readable in the dump.
    const dump = await dumpData(stack.core.databaseUrl);
    expect(dump).not.toContain(marker);
    expect(dump).not.toContain(Buffer.from(marker).toString('hex'));
    expect(dump).not.toContain(scalar);
  });
});
