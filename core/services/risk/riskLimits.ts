import type { Db } from '../../db/prismaClient';
import { validateRiskLimitsUpdate, type RiskLimitsUpdate } from '../../domain/riskLimits';
import type { Scope } from '../scope';
import { getSubaccount } from '../accounts/subaccounts';

/** `query` is the include/select the GraphQL selection needs (Pothos), spread into the read. */
export async function getRiskLimits(db: Db, scope: Scope, subaccountId: string, query: object = {}) {
  await getSubaccount(db, scope, subaccountId);
  return db.riskLimits.findUniqueOrThrow({ ...query, where: { subaccountId } });
}

export async function updateRiskLimits(
  db: Db,
  scope: Scope,
  subaccountId: string,
  update: RiskLimitsUpdate,
  query: object = {},
) {
  const data = validateRiskLimitsUpdate(update);
  await getSubaccount(db, scope, subaccountId);
  return db.riskLimits.update({ ...query, where: { subaccountId }, data: { ...data, updatedAt: new Date() } });
}
