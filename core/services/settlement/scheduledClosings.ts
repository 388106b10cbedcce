import type { Db } from '../../db/prismaClient';
import { DomainError } from '../../domain/errors';
import { RESTING_STATUSES } from '../../domain/orderLifecycle';
import { seededOutcome } from '../../domain/seededResolution';
import type { Logger } from '../../support/logger';
import { runPeriodically } from '../../support/periodic';
import type { VenueRegistry } from '../../venues/venue';
import { closeMarket } from './marketClosing';
import { settleMarket } from './settlements';

/** Markets closed per round at most; the rest wait for the next. */
const ROUND_LIMIT = 100;

/**
 * The test environment's markets close at their time (docs/settlement.md, docs/simulated-venues.md
 * "Close and resolution"): every `intervalMs` the core closes those open or paused whose close time
 * has come, a test helper's at its `closes_at` and a seeded one at the close time it was seeded
 * with (marketClosing.ts: no new orders, resting orders canceled), and cancels again what still
 * rests on one closed before (a cancel the venue could not take then). A seeded market then
 * resolves `resolveAfterMs` after its close, by the seeded rule (core/domain/seededResolution.ts),
 * and is settled like any market (settlements.ts). A test helper's market waits for its settle
 * helper. A venue's own market closes at the venue, which the catalog and the reconcilers then read.
 */
export function startScheduledClosings(db: Db, venues: VenueRegistry, logger: Logger, options: { intervalMs: number; resolveAfterMs: number }): { stop(): Promise<void> } {
  return runPeriodically(
    options.intervalMs,
    async () => {
      await closeDue(db, venues, logger);
      await resolveSeeded(db, logger, options.resolveAfterMs);
    },
    (error) => logger.warn({ err: error }, 'closing or resolving the markets due failed; retrying on the next round'),
  );
}

async function closeDue(db: Db, venues: VenueRegistry, logger: Logger): Promise<void> {
  const due = await db.market.findMany({
    where: {
      environment: 'test',
      closeTime: { lte: new Date() },
      OR: [{ status: { in: ['open', 'paused'] } }, { status: 'closed', orders: { some: { status: { in: [...RESTING_STATUSES] } } } }],
    },
    select: { id: true, status: true, workspaceId: true },
    orderBy: { closeTime: 'asc' },
    take: ROUND_LIMIT,
  });
  for (const market of due) {
    const { canceled, failed } = await closeMarket(db, venues, market.id);
    if (market.status !== 'closed') logger.info({ marketId: market.id, canceled, failed }, `${market.workspaceId === null ? 'a seeded' : "a test helper's"} market reached its close time: closed`);
    if (failed > 0) logger.warn({ marketId: market.id, failed }, 'some resting orders of a closed market could not be canceled; retrying on the next round');
  }
}

/** Seeded markets closed `resolveAfterMs` ago or more: settled at the seeded rule's outcome. */
async function resolveSeeded(db: Db, logger: Logger, resolveAfterMs: number): Promise<void> {
  const due = await db.market.findMany({
    where: { environment: 'test', workspaceId: null, status: 'closed', closeTime: { lte: new Date(Date.now() - resolveAfterMs) } },
    select: { id: true, questionKey: true, venueMarketId: true, closeTime: true, fairValue: true },
    orderBy: { closeTime: 'asc' },
    take: ROUND_LIMIT,
  });
  for (const market of due) {
    const outcome = seededOutcome(market.questionKey ?? market.venueMarketId, market.closeTime!, market.fairValue?.toString() ?? '0.5');
    try {
      const written = await settleMarket(db, market.id, outcome);
      logger.info({ marketId: market.id, result: outcome.result, settlements: written.length }, 'a seeded market resolved by the seeded rule: settled');
    } catch (error) {
      // Orders still working (a cancel the venue has not confirmed): the next round settles it.
      if (!(error instanceof DomainError && error.code === 'conflict')) throw error;
    }
  }
}
