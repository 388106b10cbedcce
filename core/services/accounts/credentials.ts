import canonicalize from 'canonicalize';
import type { Db } from '../../db/prismaClient';
import { kalshiEnvironmentNamed, type KalshiEnvironment } from '../../domain/credentialShapes';
import { rewrapCredential, sealCredential, type CredentialKeys } from '../../domain/credentialVault';
import { credentialAad } from '../../db/storedCredentials';
import { EXCHANGE_NAMES, exchangeModule, isExchangeName, type ExchangeName } from '../../venues/venueModules';
import { DomainError, invalidRequest } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { Scope } from '../scope';
import { getSubaccount } from './subaccounts';

/** What is ever shown of stored credentials: never the secret. */
export interface CredentialMetadata {
  subaccountId: string;
  exchange: ExchangeName;
  fingerprint: string;
  /** Kalshi: where the key was issued (`demo` | `production`); null for Polymarket and for a Kalshi key attached before it was asked. */
  environment: KalshiEnvironment | null;
  kekId: string;
  createdAt: Date;
}


const metadata = (row: Omit<CredentialMetadata, 'environment'> & { environment: string | null }): CredentialMetadata => ({
  subaccountId: row.subaccountId,
  exchange: row.exchange,
  fingerprint: row.fingerprint,
  environment: kalshiEnvironmentNamed(row.environment),
  kekId: row.kekId,
  createdAt: row.createdAt,
});

/**
 * Stores a subaccount's credentials for one exchange, replacing any stored before: checks their
 * shape (invalid_request naming the field; the message never contains the secret), seals the
 * canonical JSON of the normalized value under the current KEK, bound to `subaccountId:exchange`.
 * A Kalshi credential's environment is both inside the sealed value (what a venue session trusts)
 * and in a plain column (what lists show). Answers the metadata only.
 *
 * Without CREDENTIALS_KEK nothing can be sealed: the answer is `forbidden` (403), since the request
 * is well-formed and the client cannot fix it; the message tells the operator what to set.
 */
export async function attachCredential(
  db: Db,
  keys: CredentialKeys,
  scope: Scope,
  subaccountId: string,
  exchange: ExchangeName,
  input: Record<string, unknown>,
): Promise<CredentialMetadata> {
  await getSubaccount(db, scope, subaccountId);
  checkExchange(exchange);
  if (!keys.current) {
    throw new DomainError(
      'forbidden',
      'Storing exchange credentials is disabled on this server: the operator must set CREDENTIALS_KEK (32 bytes, base64).',
    );
  }
  // Each exchange's own shape (its module's checkCredential): Kalshi's key and environment; Polymarket's V2 wallet.
  const shape = exchangeModule(exchange).checkCredential(input);
  if (!shape.ok) throw invalidRequest(shape.param, shape.message);
  const sealed = sealCredential(canonicalize(shape.value)!, keys.current, credentialAad(subaccountId, exchange));
  const fields = { kekId: sealed.kekId, ciphertext: new Uint8Array(sealed.ciphertext), fingerprint: shape.fingerprint, environment: shape.environment };
  const row = await db.exchangeCredential.upsert({
    where: { subaccountId_exchange: { subaccountId, exchange } },
    create: { id: newId('credential'), subaccountId, exchange, ...fields },
    // A replacement is a new credential: its date is today's.
    update: { ...fields, createdAt: new Date() },
  });
  return metadata(row);
}

/** The metadata of a subaccount's stored credentials, one per exchange. */
export async function listCredentials(db: Db, scope: Scope, subaccountId: string): Promise<CredentialMetadata[]> {
  await getSubaccount(db, scope, subaccountId);
  const rows = await db.exchangeCredential.findMany({ where: { subaccountId }, orderBy: { exchange: 'asc' } });
  return rows.map(metadata);
}

/**
 * Key rotation: re-seals under the current KEK every stored blob sealed under another one. A row
 * replaced meanwhile (sealed under the current KEK already) is left alone. Returns how many were
 * re-sealed; once no row uses an old KEK it can be removed from CREDENTIALS_OLD_KEKS. `subaccountId`
 * limits it to one subaccount's rows.
 */
export async function rewrapStoredCredentials(
  db: Db,
  keys: CredentialKeys,
  options: { subaccountId?: string; batchSize?: number } = {},
): Promise<{ rewrapped: number }> {
  const batchSize = options.batchSize ?? 100;
  const current = keys.current;
  if (!current) throw new Error('rewrapping credentials needs CREDENTIALS_KEK');
  let rewrapped = 0;
  let after = '';
  for (;;) {
    const rows = await db.exchangeCredential.findMany({
      where: { kekId: { not: current.id }, id: { gt: after }, ...(options.subaccountId ? { subaccountId: options.subaccountId } : {}) },
      orderBy: { id: 'asc' },
      take: batchSize,
    });
    if (rows.length === 0) return { rewrapped };
    for (const row of rows) {
      const sealed = rewrapCredential(row.ciphertext, keys.keyring, row.kekId, current, credentialAad(row.subaccountId, row.exchange));
      const { count } = await db.exchangeCredential.updateMany({
        where: { id: row.id, kekId: row.kekId },
        data: { kekId: sealed.kekId, ciphertext: new Uint8Array(sealed.ciphertext) },
      });
      rewrapped += count;
    }
    after = rows[rows.length - 1].id;
  }
}

/** Destroys the stored credentials of one exchange; 404 when there are none. */
export async function deleteCredential(db: Db, scope: Scope, subaccountId: string, exchange: ExchangeName) {
  await getSubaccount(db, scope, subaccountId);
  const { count } = await db.exchangeCredential.deleteMany({ where: { subaccountId, exchange } });
  if (count === 0) {
    throw new DomainError('not_found', `Subaccount '${subaccountId}' has no ${exchange} credentials.`);
  }
  return { subaccountId, exchange, deleted: true };
}

function checkExchange(exchange: string): asserts exchange is ExchangeName {
  if (!isExchangeName(exchange)) throw invalidRequest('exchange', `exchange must be one of ${EXCHANGE_NAMES.join(', ')}.`);
}
