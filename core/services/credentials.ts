import type { Db } from '../db/prismaClient';
import { DomainError } from '../domain/errors';
import type { Scope } from './scope';
import { getSubaccount } from './subaccounts';

export const EXCHANGES = ['kalshi', 'polymarket'] as const;
export type ExchangeName = (typeof EXCHANGES)[number];

/** Destroys the stored credentials of one exchange; 404 when there are none. */
export async function deleteCredential(db: Db, scope: Scope, subaccountId: string, exchange: ExchangeName) {
  await getSubaccount(db, scope, subaccountId);
  const { count } = await db.exchangeCredential.deleteMany({ where: { subaccountId, exchange } });
  if (count === 0) {
    throw new DomainError('not_found', `Subaccount '${subaccountId}' has no ${exchange} credentials.`);
  }
  return { subaccountId, exchange, deleted: true };
}
