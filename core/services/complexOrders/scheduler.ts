import type { Db } from '../../db/prismaClient';
import type { Logger } from '../../support/logger';
import { runPeriodically } from '../../support/periodic';
import { retryStaleChildren, sendDueChildren, settleFinishedComplexOrders } from '.';
import type { VenueRegistry } from '../../venues/venue';

export interface SchedulerOptions {
  /** How often the scheduler looks for due children and finished orders. */
  intervalMs: number;
  /** After how long a child whose send was interrupted (claimed, or its order still pending or unknown) is sent again. */
  staleMs: number;
}

/**
 * Drives complex orders forward from the database, so a TWAP outlives the process that placed it:
 * each tick sends the children whose time has come, sends again those a crash or a lost answer
 * left open (safe: the child's id is its order's client order id), and settles working orders whose
 * children are all final (passive children fill later, when the venue reports it). Several cores
 * may run it at once: every claim is a single UPDATE with SKIP LOCKED.
 */
export function startComplexOrderScheduler(db: Db, venues: VenueRegistry, logger: Logger, options: SchedulerOptions): { stop(): Promise<void> } {
  return runPeriodically(
    options.intervalMs,
    async () => {
      await sendDueChildren(db, venues);
      await retryStaleChildren(db, venues, options.staleMs);
      await settleFinishedComplexOrders(db, venues);
    },
    (error) => logger.warn({ err: error }, 'complex order scheduler tick failed; retrying on the next'),
  );
}
