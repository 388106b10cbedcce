import type { Db } from '../../db/prismaClient';
import { RESTING_STATUSES } from '../../domain/orderLifecycle';
import type { Logger } from '../../support/logger';
import { runPeriodically } from '../../support/periodic';
import type { VenueRegistry } from '../../venues/venue';
import { closeMarket } from './marketClosing';

/** Markets closed per round at most; the rest wait for the next. */
const ROUND_LIMIT = 100;

/**
 * Test helpers' markets close at their `closes_at` (their close_time; docs/settlement.md): every
 * `intervalMs` the core closes those open or paused whose time has come (marketClosing.ts: no new
 * orders, resting orders canceled), and cancels again what still rests on one closed before (a
 * cancel the venue could not take then). A venue's own market closes at the venue, which the
 * catalog and the reconcilers then read.
 */
export function startScheduledClosings(db: Db, venues: VenueRegistry, logger: Logger, options: { intervalMs: number }): { stop(): Promise<void> } {
  return runPeriodically(
    options.intervalMs,
    async () => {
      const due = await db.market.findMany({
        where: {
          workspaceId: { not: null },
          closeTime: { lte: new Date() },
          OR: [{ status: { in: ['open', 'paused'] } }, { status: 'closed', orders: { some: { status: { in: [...RESTING_STATUSES] } } } }],
        },
        select: { id: true, status: true },
        orderBy: { closeTime: 'asc' },
        take: ROUND_LIMIT,
      });
      for (const market of due) {
        const { canceled, failed } = await closeMarket(db, venues, market.id);
        if (market.status !== 'closed') logger.info({ marketId: market.id, canceled, failed }, "a test helper's market reached its closes_at: closed");
        if (failed > 0) logger.warn({ marketId: market.id, failed }, 'some resting orders of a closed market could not be canceled; retrying on the next round');
      }
    },
    (error) => logger.warn({ err: error }, 'closing the markets due failed; retrying on the next round'),
  );
}
