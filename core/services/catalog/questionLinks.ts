import type { Db } from '../../db/prismaClient';
import { DomainError, invalidRequest } from '../../domain/errors';
import type { VenueColumn } from '../../venues/venueModules';

/**
 * The operator's links between a live Kalshi market and a live Polymarket condition that list the
 * same binary question (table `question_links`; `npm run cli -- questions link|unlink|list`).
 *
 * Listings cannot be matched safely by their text for real money ("above 4%" vs "4% or above",
 * different resolution sources, YES on one being NO on the other), so only an operator links them.
 * A link sets the Polymarket row's `question_key` to the Kalshi ticker, which is the Kalshi row's
 * key (core/venues/kalshi/catalogSource.ts), so complex orders plan across both venues
 * (complexOrders/books.ts `eligibleListings`). The catalog sync (catalogSync.ts) reads the link
 * on every upsert (linkedQuestionKeys), so a condition linked before Gamma lists it
 * gets its key when its row is created. Unlinking clears the key at once.
 */
export interface QuestionLinkView {
  readonly kalshiTicker: string;
  readonly polymarketConditionId: string;
  readonly createdBy: string;
  readonly createdAt: Date;
  /** The listings' titles, null when the catalog has no row (yet). */
  readonly kalshiTitle: string | null;
  readonly polymarketTitle: string | null;
}

const CONDITION_ID = /^0x[0-9a-f]{64}$/;

/** A condition id as the catalog stores it (lower case); invalid_request when it is not bytes32 hex. */
export function normalizeConditionId(value: string): string {
  const id = value.trim().toLowerCase();
  if (!CONDITION_ID.test(id)) throw invalidRequest('polymarket', `'${value.slice(0, 80)}' is not a Polymarket condition id (0x and 64 hex digits)`);
  return id;
}

async function viewOf(db: Db, link: { kalshiTicker: string; polymarketConditionId: string; createdBy: string; createdAt: Date }): Promise<QuestionLinkView> {
  const rows = await db.market.findMany({
    where: { environment: 'live', OR: [{ venue: 'kalshi', venueMarketId: link.kalshiTicker }, { venue: 'polymarket', venueMarketId: link.polymarketConditionId }] },
    select: { venue: true, title: true },
  });
  return {
    ...link,
    kalshiTitle: rows.find((r) => r.venue === 'kalshi')?.title ?? null,
    polymarketTitle: rows.find((r) => r.venue === 'polymarket')?.title ?? null,
  };
}

/**
 * Links a live Kalshi market (it must be in the live catalog) to a Polymarket condition (its row
 * may come later, with the next sync). `conflict` when either side is already linked elsewhere;
 * linking the same pair again changes nothing.
 */
export async function linkQuestion(db: Db, input: { kalshiTicker: string; polymarketConditionId: string; createdBy: string }): Promise<QuestionLinkView> {
  const conditionId = normalizeConditionId(input.polymarketConditionId);
  const ticker = input.kalshiTicker.trim();
  const kalshi = await db.market.findFirst({ where: { environment: 'live', venue: 'kalshi', venueMarketId: ticker } });
  if (!kalshi) throw new DomainError('not_found', `The live catalog has no Kalshi market '${ticker.slice(0, 80)}' (the Kalshi catalog sync brings Kalshi's open markets in).`);
  const link = await db.$transaction(async (tx) => {
    const existing = await tx.questionLink.findFirst({ where: { OR: [{ kalshiTicker: ticker }, { polymarketConditionId: conditionId }] } });
    if (existing && existing.kalshiTicker === ticker && existing.polymarketConditionId === conditionId) return existing;
    if (existing) {
      throw new DomainError('conflict', `Already linked: Kalshi ${existing.kalshiTicker} <-> Polymarket ${existing.polymarketConditionId}; unlink it first.`);
    }
    const created = await tx.questionLink.create({ data: { kalshiTicker: ticker, polymarketConditionId: conditionId, createdBy: input.createdBy } });
    await tx.market.updateMany({
      where: { environment: 'live', venue: 'polymarket', venueMarketId: conditionId },
      data: { questionKey: ticker, updatedAt: new Date() },
    });
    return created;
  }).catch((error: unknown) => {
    // Two operators linking one side at once: the unique index decides, the loser hears why.
    if ((error as { code?: unknown }).code === 'P2002') throw new DomainError('conflict', 'Already linked by someone else just now; list the links and try again.');
    throw error;
  });
  return viewOf(db, link);
}

/** Removes the link of a Kalshi ticker or a Polymarket condition id and clears the Polymarket row's key; not_found when there is none. */
export async function unlinkQuestion(db: Db, by: { kalshiTicker: string } | { polymarketConditionId: string }): Promise<QuestionLinkView> {
  const where = 'kalshiTicker' in by ? { kalshiTicker: by.kalshiTicker.trim() } : { polymarketConditionId: normalizeConditionId(by.polymarketConditionId) };
  const link = await db.$transaction(async (tx) => {
    const found = await tx.questionLink.findUnique({ where });
    if (!found) return null;
    await tx.questionLink.delete({ where: { polymarketConditionId: found.polymarketConditionId } });
    await tx.market.updateMany({
      where: { environment: 'live', venue: 'polymarket', venueMarketId: found.polymarketConditionId },
      data: { questionKey: null, updatedAt: new Date() },
    });
    return found;
  });
  if (!link) throw new DomainError('not_found', `No question link for ${'kalshiTicker' in by ? `Kalshi ${where.kalshiTicker}` : `Polymarket ${where.polymarketConditionId}`}.`);
  return viewOf(db, link);
}

/** Every link, oldest first, with both listings' titles. */
export async function listQuestionLinks(db: Db): Promise<QuestionLinkView[]> {
  const links = await db.questionLink.findMany({ orderBy: [{ createdAt: 'asc' }, { kalshiTicker: 'asc' }] });
  return Promise.all(links.map((link) => viewOf(db, link)));
}

/**
 * The question keys the links give listings of `venue` that name none themselves, by venue market
 * id: a linked Polymarket condition's key is its Kalshi ticker (the catalog sync writes it).
 */
export async function linkedQuestionKeys(db: Db, venue: VenueColumn, venueMarketIds: readonly string[]): Promise<ReadonlyMap<string, string>> {
  if (venue !== 'polymarket' || venueMarketIds.length === 0) return new Map();
  const links = await db.questionLink.findMany({ where: { polymarketConditionId: { in: [...venueMarketIds] } }, select: { kalshiTicker: true, polymarketConditionId: true } });
  return new Map(links.map((link) => [link.polymarketConditionId, link.kalshiTicker]));
}
