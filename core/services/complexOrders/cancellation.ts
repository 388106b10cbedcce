import type { Db } from '../../db/prismaClient';
import type { ComplexOrder } from '../../generated/prisma/client';
import { DomainError } from '../../domain/errors';
import { CANCELABLE_COMPLEX_ORDER_STATUSES, RESTING_STATUSES } from '../../domain/orderLifecycle';
import type { VenueCallOptions, VenueRegistry } from '../../venues/venue';
import { cancelOrder } from '../orders/orders';
import type { Scope } from '../scope';
import { getComplexOrder } from './queries';
import { finishComplexOrder } from './settlement';

/**
 * Cancels a working complex order: its unsent children are canceled, its resting children are
 * canceled at their venues, and the order is final (`canceled`). What already filled stays filled.
 * `call`: the limits of those venue cancels (a caller's deadline).
 */
export async function cancelComplexOrder(db: Db, venues: VenueRegistry, scope: Scope, id: string, call: VenueCallOptions = {}): Promise<ComplexOrder> {
  const parent = await getComplexOrder(db, scope, id);
  if (!(await finishComplexOrder(db, venues, parent.id, [...CANCELABLE_COMPLEX_ORDER_STATUSES], 'canceled'))) {
    const current = await db.complexOrder.findUniqueOrThrow({ where: { id } });
    throw new DomainError('conflict', `Complex order '${id}' is ${current.status}; only a working complex order can be canceled.`);
  }
  await db.childOrder.updateMany({ where: { complexOrderId: id, status: 'scheduled' }, data: { status: 'canceled' } });
  const resting = await db.order.findMany({ where: { complexOrderId: id, status: { in: [...RESTING_STATUSES] } }, select: { id: true } });
  const results = await Promise.allSettled(resting.map((order) => cancelOrder(db, venues, scope, order.id, call)));
  const failed = results.filter((result) => result.status === 'rejected' && !(result.reason instanceof DomainError && result.reason.code === 'conflict'));
  if (failed.length > 0) {
    throw new DomainError('venue_unavailable', `The complex order is canceled, but ${failed.length} resting child order(s) could not be canceled yet; cancel those orders one by one.`);
  }
  return db.complexOrder.findUniqueOrThrow({ where: { id } });
}
