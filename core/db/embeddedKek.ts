import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseKeyring, type CredentialKeys } from '../domain/credentialVault';

/** The id of the embedded database's own key-encryption key, stored beside each blob it seals. */
export const EMBEDDED_KEK_ID = 'embedded';

/** What the keyring reads of the configuration (core/config.ts). */
interface KeyringSettings {
  DATABASE_URL?: string;
  PGLITE_DATA_DIR: string;
  CREDENTIALS_KEK?: string;
  CREDENTIALS_KEK_ID: string;
  CREDENTIALS_OLD_KEKS?: string;
}

/** Where the embedded database keeps its key: beside its data directory (`.data/pglite.kek` by default). */
export const embeddedKekPath = (dataDir: string) => path.join(path.dirname(path.resolve(dataDir)), `${path.basename(dataDir)}.kek`);

/**
 * The keys that seal venue credentials and webhook secrets (docs/credentials.md).
 *
 * With a database of the operator's (DATABASE_URL), only the configured CREDENTIALS_KEK…: without
 * one nothing can be sealed, and attaching a credential or registering a webhook answers 403. On the
 * embedded default (`npm start` with nothing configured) without a CREDENTIALS_KEK, the database has
 * a key of its own, so that every feature works on a fresh machine: 32 random bytes in an
 * owner-only file beside the data (`PGLITE_DATA_DIR` + `.kek`, mode 0600), created on the first
 * start and read on every later one (the CLI reads it too); in memory only for a `memory` data
 * directory. It is as safe as the data directory itself, no more: production sets CREDENTIALS_KEK
 * (a secret of the operator's, kept apart from the data). A configured CREDENTIALS_KEK always wins;
 * the embedded key, once used, opens what it sealed when given in CREDENTIALS_OLD_KEKS as
 * `embedded:<its base64>`.
 */
export function credentialKeysFor(config: KeyringSettings): CredentialKeys & { embeddedKekFile?: string } {
  const configured = parseKeyring(config);
  if (configured.current || config.DATABASE_URL) return configured;
  if (configured.keyring.has(EMBEDDED_KEK_ID)) {
    throw new Error(`CREDENTIALS_OLD_KEKS names '${EMBEDDED_KEK_ID}', the embedded database's own key: set CREDENTIALS_KEK as the current key`);
  }
  const inMemory = config.PGLITE_DATA_DIR === 'memory';
  const file = inMemory ? undefined : embeddedKekPath(config.PGLITE_DATA_DIR);
  const key = file ? readOrCreateKey(file) : randomBytes(32);
  const keyring = new Map(configured.keyring);
  keyring.set(EMBEDDED_KEK_ID, key);
  return { current: { id: EMBEDDED_KEK_ID, key }, keyring, embeddedKekFile: file };
}

/** The key in `file`, or a new one written there first (owner-only, never overwritten: two starts at once agree). */
function readOrCreateKey(file: string): Buffer {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a key of 32 bytes, base64-encoded: restore it, or set CREDENTIALS_KEK`);
  return key;
}
