import type { Db } from './prismaClient';
import type { CredentialsByExchange } from '../domain/credentialShapes';
import { openCredential } from '../domain/credentialVault';
import { DomainError } from '../domain/errors';
import type { Exchange } from '../generated/prisma/client';

/** The blob of a row is bound to the row's place: copied to another subaccount or exchange it does not open. */
export const credentialAad = (subaccountId: string, exchange: Exchange) => `${subaccountId}:${exchange}`;

/**
 * The decrypted credentials, for venue adapters (server side: no scope; the caller has already
 * resolved the subaccount). not_found when none are stored; a blob
 * that does not open (its KEK is not configured, or it was tampered with) is a
 * CredentialVaultError, an internal error. The decrypted bytes are wiped once parsed.
 */
export async function openStoredCredential<E extends Exchange>(
  db: Db,
  keyring: ReadonlyMap<string, Buffer>,
  subaccountId: string,
  exchange: E,
): Promise<CredentialsByExchange[E]> {
  const row = await db.exchangeCredential.findUnique({ where: { subaccountId_exchange: { subaccountId, exchange } } });
  if (!row) throw new DomainError('not_found', `Subaccount '${subaccountId}' has no ${exchange} credentials.`);
  const plaintext = openCredential(row.ciphertext, keyring, row.kekId, credentialAad(subaccountId, exchange));
  try {
    return JSON.parse(plaintext.toString('utf8')) as CredentialsByExchange[E];
  } finally {
    plaintext.fill(0);
  }
}
