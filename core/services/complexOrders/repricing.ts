import type { Db } from '../../db/prismaClient';
import type { ChildOrder, ComplexOrder } from '../../generated/prisma/client';
import { formatDecimal } from '../../domain/decimals';
import { planExecution } from '../../domain/planning';
import type { VenueRegistry } from '../../venues/venue';
import { snapshotsOf } from './books';
import { noExecutablePlan } from './noExecutablePlan';

/**
 * A TWAP slice is priced when it is sent, not when the order was placed: its quantity is swept over
 * its venue's book as it is then, no further than the parent's limit price. (The placement's plan
 * only predicted that price; the difference is what execution analytics measure.) The price is
 * recorded on the child before the order is placed. No liquidity within the limit refuses the slice.
 */
export async function repriceSlice(db: Db, venues: VenueRegistry, parent: ComplexOrder, child: ChildOrder): Promise<string> {
  const market = await db.market.findUniqueOrThrow({ where: { id: child.marketId } });
  const snapshots = await snapshotsOf(venues, [market], SLICE_BOOK_DEPTH);
  const plan = planExecution(
    {
      side: parent.side,
      action: parent.action,
      quantity: formatDecimal(child.quantity),
      limitPrice: formatDecimal(parent.limitPrice),
      strategy: 'sweep',
      venues: snapshots.map((snapshot) => snapshot.venue),
    },
    snapshots,
  );
  const price = plan.recommended?.children[0]?.price;
  if (!price) throw noExecutablePlan(plan);
  await db.childOrder.update({ where: { id: child.id }, data: { price } });
  return price;
}

const SLICE_BOOK_DEPTH = 100;
