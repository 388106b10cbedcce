import type { Db } from '../../db/prismaClient';
import { Prisma } from '../../generated/prisma/client';
import { sqlList } from '../../db/sqlLists';
import { UNCONFIRMED_STATUSES } from '../../domain/orderLifecycle';
import type { VenueRegistry } from '../../venues/venue';
import { sendInOrder, type ClaimedChild } from './sending';

/**
 * Claims the children that are due (scheduled, their time come, their parent still working) and
 * sends them, the children of one batch concurrently. A claim is one UPDATE ... RETURNING, so two
 * cores (or the request and the scheduler) never send one child twice. Returns how many were sent.
 */
export async function sendDueChildren(db: Db, venues: VenueRegistry, where: { complexOrderId?: string } = {}, batch = 50): Promise<number> {
  const onlyParent = where.complexOrderId ? Prisma.sql`AND c.complex_order_id = ${where.complexOrderId}` : Prisma.empty;
  const claimed = await db.$queryRaw<ClaimedChild[]>`
    UPDATE child_orders SET status = 'sending', sent_at = now()
     WHERE id IN (
       SELECT c.id FROM child_orders c JOIN complex_orders p ON p.id = c.complex_order_id
        WHERE c.status = 'scheduled' AND c.scheduled_at <= now() AND p.status = 'working' ${onlyParent}
        ORDER BY c.scheduled_at, c.id LIMIT ${batch}
        FOR UPDATE OF c SKIP LOCKED)
    RETURNING id, complex_order_id, scheduled_at`;
  await sendInOrder(db, venues, claimed);
  return claimed.length;
}

/**
 * Children whose fate is open after a crash or a lost venue answer: claimed but never linked to an
 * order for `staleMs`, or (while their parent works) linked to an order still pending or unknown.
 * Sending them again is safe: the order's client order id is the child's id, so placement
 * reconciles instead of placing twice. Both scans stay small as history grows: the first reads the
 * `sending` children (status index), the second only the children of working parents.
 */
export async function retryStaleChildren(db: Db, venues: VenueRegistry, staleMs: number, batch = 50): Promise<number> {
  const staleBefore = Prisma.sql`now() - make_interval(secs => ${staleMs / 1000})`;
  // Two claims: PostgreSQL allows no FOR UPDATE in the branches of a UNION.
  const claimStale = (candidates: Prisma.Sql) => db.$queryRaw<ClaimedChild[]>`
    UPDATE child_orders c SET sent_at = now() WHERE c.id IN (${candidates})
    RETURNING c.id, c.complex_order_id, c.scheduled_at`;
  const interrupted = await claimStale(Prisma.sql`
    SELECT c1.id FROM child_orders c1
     WHERE c1.status = 'sending' AND c1.sent_at < ${staleBefore}
     LIMIT ${batch} FOR UPDATE OF c1 SKIP LOCKED`);
  const unanswered = await claimStale(Prisma.sql`
    SELECT c2.id FROM complex_orders p
      JOIN child_orders c2 ON c2.complex_order_id = p.id
      JOIN orders o ON o.id = c2.order_id
     WHERE p.status = 'working' AND c2.status = 'sent' AND o.status IN ${sqlList(UNCONFIRMED_STATUSES)} AND o.updated_at < ${staleBefore}
     LIMIT ${batch} FOR UPDATE OF c2 SKIP LOCKED`);
  const stale = [...interrupted, ...unanswered];
  await sendInOrder(db, venues, stale);
  return stale.length;
}
