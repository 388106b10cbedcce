import type { Db } from '../../db/prismaClient';
import { DomainError, invalidRequest } from '../../domain/errors';
import { venueColumn, venueModule, venueName, type VenueColumn, type VenueName } from '../../venues/venueModules';

/**
 * The operator's links between listings of two venues that ask the same binary question (table
 * `question_links`; `npm run cli -- questions link|unlink|list`).
 *
 * Listings cannot be matched safely by their text for real money ("above 4%" vs "4% or above",
 * different resolution sources, YES on one being NO on the other), so only an operator links them.
 * A link gives a listing the question key of another venue's listing, its anchor (a Kalshi ticker
 * is its own key, core/venues/kalshi/catalogSource.ts), so complex orders plan across both venues
 * (complexOrders/books.ts `eligibleListings`). The catalog sync (catalogSync.ts) reads the links on
 * every upsert (linkedQuestionKeys), so a listing linked before its venue lists it gets its key when
 * its row is created. Unlinking clears the key at once. Nothing here knows a venue: a venue's module
 * says how its market ids are written (VenueModule.marketIdOf) and where it trades.
 */

/** A venue's listing, as the operator names it: the venue in either spelling, its market id as written. */
export interface ListingRef {
  readonly venue: string;
  readonly venueMarketId: string;
}

export interface LinkedListing {
  readonly venue: VenueName;
  readonly venueMarketId: string;
  /** Its title, null when the catalog has no row (yet). */
  readonly title: string | null;
}

export interface QuestionLinkView {
  /** The listing that takes the anchor's question key. */
  readonly listing: LinkedListing;
  readonly anchor: LinkedListing;
  readonly questionKey: string;
  readonly createdBy: string;
  readonly createdAt: Date;
}

interface StoredLink {
  venue: string;
  venueMarketId: string;
  anchorVenue: string;
  anchorMarketId: string;
  questionKey: string;
  createdBy: string;
  createdAt: Date;
}

/** A listing as its catalog spells it: a registered venue, its id normalized by its module; invalid_request otherwise. */
function catalogListing(ref: ListingRef): { venue: VenueColumn; venueMarketId: string } {
  let venue: VenueColumn;
  try {
    venue = venueColumn(ref.venue.trim());
  } catch {
    throw invalidRequest('venue', `'${ref.venue.slice(0, 40)}' is not a venue.`);
  }
  const module = venueModule(venue);
  const written = ref.venueMarketId.trim();
  const checked = module.marketIdOf?.(written) ?? (written ? { ok: true as const, id: written } : { ok: false as const, expected: 'a market id' });
  if (!checked.ok) throw invalidRequest(module.name, `'${ref.venueMarketId.slice(0, 80)}' is not ${checked.expected}.`);
  return { venue, venueMarketId: checked.id };
}

const listingName = (venue: string, venueMarketId: string) => `${venueName(venue)} ${venueMarketId}`;

async function viewOf(db: Db, link: StoredLink): Promise<QuestionLinkView> {
  const environment = venueModule(link.anchorVenue).environment;
  const rows = await db.market.findMany({
    where: { environment, OR: [{ venue: link.venue, venueMarketId: link.venueMarketId }, { venue: link.anchorVenue, venueMarketId: link.anchorMarketId }] },
    select: { venue: true, venueMarketId: true, title: true },
  });
  const titleOf = (venue: string, venueMarketId: string) => rows.find((r) => r.venue === venue && r.venueMarketId === venueMarketId)?.title ?? null;
  return {
    listing: { venue: venueName(link.venue), venueMarketId: link.venueMarketId, title: titleOf(link.venue, link.venueMarketId) },
    anchor: { venue: venueName(link.anchorVenue), venueMarketId: link.anchorMarketId, title: titleOf(link.anchorVenue, link.anchorMarketId) },
    questionKey: link.questionKey,
    createdBy: link.createdBy,
    createdAt: link.createdAt,
  };
}

/**
 * Links `listing` to `anchor`, a listing of another venue of the same environment that must be in
 * the catalog (the listing's row may come later, with the next sync): the listing's row takes the
 * anchor's question key. `conflict` when the listing is linked elsewhere, when the anchor already
 * has a listing of that venue linked, or when the listing's venue keys it itself; linking the same
 * pair again changes nothing.
 */
export async function linkQuestion(db: Db, input: { listing: ListingRef; anchor: ListingRef; createdBy: string }): Promise<QuestionLinkView> {
  const listing = catalogListing(input.listing);
  const anchor = catalogListing(input.anchor);
  if (listing.venue === anchor.venue) throw invalidRequest('venue', 'A question link joins listings of two venues.');
  const environment = venueModule(anchor.venue).environment;
  if (venueModule(listing.venue).environment !== environment) throw invalidRequest('venue', `${venueName(listing.venue)} and ${venueName(anchor.venue)} trade in different environments.`);
  const anchorRow = await db.market.findFirst({ where: { environment, venue: anchor.venue, venueMarketId: anchor.venueMarketId } });
  if (!anchorRow) {
    throw new DomainError('not_found', `The ${environment} catalog has no ${listingName(anchor.venue, anchor.venueMarketId.slice(0, 80))} (its venue's catalog sync brings its open markets in).`);
  }
  const questionKey = anchorRow.questionKey ?? anchorRow.venueMarketId;
  const link = await db.$transaction(async (tx) => {
    const existing = await tx.questionLink.findFirst({
      where: { OR: [{ venue: listing.venue, venueMarketId: listing.venueMarketId }, { anchorVenue: anchor.venue, anchorMarketId: anchor.venueMarketId, venue: listing.venue }] },
    });
    if (existing && existing.venueMarketId === listing.venueMarketId && existing.anchorVenue === anchor.venue && existing.anchorMarketId === anchor.venueMarketId) return existing;
    if (existing) {
      throw new DomainError('conflict', `Already linked: ${listingName(existing.anchorVenue, existing.anchorMarketId)} <-> ${listingName(existing.venue, existing.venueMarketId)}; unlink it first.`);
    }
    const listed = await tx.market.findFirst({ where: { environment, venue: listing.venue, venueMarketId: listing.venueMarketId }, select: { questionKey: true } });
    if (listed?.questionKey != null && listed.questionKey !== questionKey) {
      throw new DomainError('conflict', `${listingName(listing.venue, listing.venueMarketId)} has a question key of its own (${listed.questionKey}): link the other listing to it instead.`);
    }
    const created = await tx.questionLink.create({
      data: { venue: listing.venue, venueMarketId: listing.venueMarketId, anchorVenue: anchor.venue, anchorMarketId: anchor.venueMarketId, questionKey, createdBy: input.createdBy },
    });
    // Both rows carry the key (an anchor without a key of its own takes its id as one).
    if (anchorRow.questionKey === null) await tx.market.update({ where: { id: anchorRow.id }, data: { questionKey, updatedAt: new Date() } });
    await tx.market.updateMany({ where: { environment, venue: listing.venue, venueMarketId: listing.venueMarketId }, data: { questionKey, updatedAt: new Date() } });
    return created;
  }).catch((error: unknown) => {
    // Two operators linking one side at once: the unique indexes decide, the loser hears why.
    if ((error as { code?: unknown }).code === 'P2002') throw new DomainError('conflict', 'Already linked by someone else just now; list the links and try again.');
    throw error;
  });
  return viewOf(db, link);
}

/**
 * Removes the link of a listing, named either as the linked listing or as the anchor (which must
 * then have one link only), and clears the linked listing's key; not_found when there is none.
 */
export async function unlinkQuestion(db: Db, by: ListingRef): Promise<QuestionLinkView> {
  const named = catalogListing(by);
  const link = await db.$transaction(async (tx) => {
    const found = await tx.questionLink.findMany({
      where: { OR: [{ venue: named.venue, venueMarketId: named.venueMarketId }, { anchorVenue: named.venue, anchorMarketId: named.venueMarketId }] },
    });
    if (found.length === 0) return null;
    if (found.length > 1) throw invalidRequest('venue', `${listingName(named.venue, named.venueMarketId)} anchors ${found.length} links: name the linked listing instead.`);
    const [one] = found as [StoredLink];
    await tx.questionLink.delete({ where: { venue_venueMarketId: { venue: one.venue, venueMarketId: one.venueMarketId } } });
    await tx.market.updateMany({
      where: { environment: venueModule(one.venue).environment, venue: one.venue, venueMarketId: one.venueMarketId },
      data: { questionKey: null, updatedAt: new Date() },
    });
    return one;
  });
  if (!link) throw new DomainError('not_found', `No question link for ${listingName(named.venue, named.venueMarketId)}.`);
  return viewOf(db, link);
}

/** Every link, oldest first, with both listings' titles. */
export async function listQuestionLinks(db: Db): Promise<QuestionLinkView[]> {
  const links = await db.questionLink.findMany({ orderBy: [{ createdAt: 'asc' }, { anchorMarketId: 'asc' }, { venue: 'asc' }] });
  return Promise.all(links.map((link) => viewOf(db, link)));
}

/**
 * The question keys the links give listings of `venue` that name none themselves, by venue market
 * id (the catalog sync writes them).
 */
export async function linkedQuestionKeys(db: Db, venue: VenueColumn, venueMarketIds: readonly string[]): Promise<ReadonlyMap<string, string>> {
  if (venueMarketIds.length === 0) return new Map();
  const links = await db.questionLink.findMany({ where: { venue, venueMarketId: { in: [...venueMarketIds] } }, select: { venueMarketId: true, questionKey: true } });
  return new Map(links.map((link) => [link.venueMarketId, link.questionKey]));
}
