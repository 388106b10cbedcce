import type { Db } from '../db/prismaClient';
import { DomainError, notFound } from '../domain/errors';
import { planExecution, type ExecutionPlan, type ExecutionStrategy } from '../domain/planning';
import { venueName } from '../domain/venues';
import { eligibleListings, snapshotsOf } from './complexOrderBooks';
import type { VenueRegistry } from '../venues/venue';
import type { Scope } from './scope';
import { getSubaccount } from './subaccounts';

/** How deep the books are read for a plan: enough levels for large sweeps. */
const BOOK_DEPTH = 100;

export interface PreviewInput {
  subaccountId: string;
  marketId: string;
  side: 'yes' | 'no';
  action: 'buy' | 'sell';
  quantity: string;
  limitPrice?: string | null;
  strategy: ExecutionStrategy;
  durationSeconds?: number | null;
  slices?: number | null;
  venues?: string[] | null;
}

export interface Preview {
  marketId: string;
  /** The market of each eligible venue whose book was read. */
  marketIdsByVenue: Record<string, string>;
  plan: ExecutionPlan;
}

/**
 * Predicts what a parent order would cost and recommends how to execute it, reading the current
 * books of every eligible venue that lists the same question (the market's `question_key`). Reads
 * only: nothing is placed, reserved or stored.
 */
export async function previewComplexOrder(db: Db, venues: VenueRegistry, scope: Scope, input: PreviewInput): Promise<Preview> {
  await getSubaccount(db, scope, input.subaccountId);
  const market = await db.market.findUnique({ where: { id: input.marketId } });
  if (!market || market.environment !== scope.environment) throw notFound('market', input.marketId);
  const listings = (await eligibleListings(db, scope, market, input.venues)).filter((listing) => venues.marketData(listing.venue));
  const snapshots = await snapshotsOf(venues, listings, BOOK_DEPTH);
  if (snapshots.length === 0) throw new DomainError('market_not_tradable', 'No eligible venue lists this market for the caller.');
  const plan = planExecution(
    {
      side: input.side,
      action: input.action,
      quantity: input.quantity,
      limitPrice: input.limitPrice ?? null,
      strategy: input.strategy,
      durationSeconds: input.durationSeconds ?? null,
      slices: input.slices ?? null,
      venues: snapshots.map((s) => s.venue),
    },
    snapshots,
  );
  return { marketId: market.id, marketIdsByVenue: Object.fromEntries(listings.map((l) => [venueName(l.venue), l.id])), plan };
}
