import type { Db } from '../db/prismaClient';
import { DomainError, notFound } from '../domain/errors';
import { rulesForMarket } from '../domain/marketRules';
import { planExecution, type ExecutionStrategy, type VenueMarketSnapshot } from '../domain/planning';
import { isSimulated, isVenueName, venueName, type VenueName } from '../domain/venues';
import type { VenueRegistry } from './orders';
import type { Scope } from './scope';
import { getSubaccount } from './subaccounts';

/** How deep the books are read for a preview: enough levels for large sweeps. */
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
  venues?: string[] | null;
}

/**
 * Predicts what a parent order would cost and recommends how to execute it, reading the current
 * books of every eligible venue that lists the same question (the market's `question_key`). Reads
 * only: nothing is placed, reserved or stored.
 */
export async function previewComplexOrder(db: Db, venues: VenueRegistry, scope: Scope, input: PreviewInput) {
  await getSubaccount(db, scope, input.subaccountId);
  const market = await db.market.findUnique({ where: { id: input.marketId } });
  if (!market || market.environment !== scope.environment) throw notFound('market', input.marketId);
  const listings = market.questionKey
    ? await db.market.findMany({ where: { environment: scope.environment, questionKey: market.questionKey, status: 'open' } })
    : [market];
  const allowed = (input.venues ?? listings.map((m) => venueName(m.venue))).filter(isVenueName);
  const eligible = listings.filter(
    (m) => allowed.includes(venueName(m.venue)) && isSimulated(venueName(m.venue)) === (scope.environment === 'test'),
  );
  const snapshots: VenueMarketSnapshot[] = [];
  const marketIdByVenue = new Map<VenueName, string>();
  for (const listing of eligible) {
    const venue = venues.get(listing.venue);
    if (!venue) continue;
    snapshots.push({ venue: venueName(listing.venue), book: await venue.orderBook(listing.venueMarketId, BOOK_DEPTH), rules: rulesForMarket(listing) });
    marketIdByVenue.set(venueName(listing.venue), listing.id);
  }
  if (snapshots.length === 0) throw new DomainError('market_not_tradable', 'No eligible venue lists this market for the caller.');
  const plan = planExecution(
    {
      side: input.side,
      action: input.action,
      quantity: input.quantity,
      limitPrice: input.limitPrice ?? null,
      strategy: input.strategy,
      durationSeconds: input.durationSeconds ?? null,
      venues: snapshots.map((s) => s.venue),
    },
    snapshots,
  );
  return { marketId: market.id, marketIdsByVenue: Object.fromEntries(marketIdByVenue), plan };
}
