import { Decimal } from '../../domain/decimals';
import { DomainError } from '../../domain/errors';
import type { Db } from '../../db/prismaClient';
import { OrderSide, type Market } from '../../generated/prisma/client';
import { decodeCursor, parseLimit, toPage, type Page } from '../../domain/pagination';
import { averageCostOf, unrealizedPnl } from '../../domain/positionAccounting';
import { WORKING_STATUSES } from '../../domain/orderLifecycle';
import { sqlList } from '../../db/sqlLists';
import type { VenueColumn } from '../../venues/venueModules';
import type { MarketData, VenueRegistry } from '../../venues/venue';
import type { Scope } from '../scope';
import { getSubaccount } from '../accounts/subaccounts';
import { venueAccountsOf, type VenueAccountView } from '../accounts/venueAccounts';

/** The mid of a market for one side (a NO contract's mid is 1 - the YES mid), or null without a two-sided book. */
export async function markPrice(venues: VenueRegistry, market: Pick<Market, 'venue' | 'venueMarketId'>, side: 'yes' | 'no') {
  return sideMark(await yesMid(venues.marketData(market.venue), market.venueMarketId), side);
}

const sideMark = (mid: Decimal | null, side: 'yes' | 'no') => (mid === null ? null : side === 'yes' ? mid : new Decimal(1).sub(mid));

/**
 * The YES mid of `book`'s market, or null: no book (the venue is not running), no two-sided book,
 * or a venue that cannot be asked now (unreachable, or no answer within its *_TIMEOUT_MS, each
 * session's own bound), which leaves the position unmarked (valued at cost), not the answer failed.
 */
async function yesMid(book: MarketData | undefined, venueMarketId: string): Promise<Decimal | null> {
  if (!book) return null;
  const view = await book.orderBook(venueMarketId, 1).catch((error: unknown) => {
    if (error instanceof DomainError && (error.code === 'venue_unavailable' || error.code === 'market_not_tradable')) return null;
    throw error;
  });
  return view?.mid == null ? null : new Decimal(view.mid);
}

/**
 * The book a subaccount's position on `venue` is marked to: the book of the account it trades
 * through, as a simulated position is marked to the simulated venue it trades on. A live account
 * reads the books of its credential's environment (a Kalshi demo key's are demo's, whatever
 * environment the catalog is synced from); the venue's public market data when the subaccount has
 * no account there (its credential removed since) or the account cannot be opened.
 */
async function bookOf(venues: VenueRegistry, venue: VenueColumn, subaccountId: string): Promise<MarketData | undefined> {
  const account = await venues.forSubaccount(venue, subaccountId).catch(() => undefined);
  return account ?? venues.marketData(venue);
}

type PositionFilter = { subaccountId?: string | null; marketId?: string | null };

/** Open positions of the scope (optionally one subaccount or market), in (subaccount, market, side) order. */
async function openPositionsWhere(db: Db, scope: Scope, filter: PositionFilter) {
  if (filter.subaccountId != null) await getSubaccount(db, scope, filter.subaccountId);
  return {
    quantity: { gt: 0 },
    subaccount: { workspaceId: scope.workspaceId, environment: scope.environment, status: 'active' as const },
    ...(filter.subaccountId != null ? { subaccountId: filter.subaccountId } : {}),
    ...(filter.marketId != null ? { marketId: filter.marketId } : {}),
  };
}

const POSITION_ORDER = [{ subaccountId: 'asc' as const }, { marketId: 'asc' as const }, { side: 'asc' as const }];

function markPositions<
  P extends { subaccountId: string; market: Market; side: 'yes' | 'no'; quantity: { toString(): string }; costBasis: { toString(): string } },
>(venues: VenueRegistry, positions: P[]) {
  // One account and one book read per subaccount, venue and market: a YES and a NO position share it.
  const books = new Map<string, Promise<MarketData | undefined>>();
  const mids = new Map<string, Promise<Decimal | null>>();
  const midFor = (position: P) => {
    const account = `${position.market.venue}\n${position.subaccountId}`;
    if (!books.has(account)) books.set(account, bookOf(venues, position.market.venue, position.subaccountId));
    const key = `${account}\n${position.market.venueMarketId}`;
    if (!mids.has(key)) mids.set(key, books.get(account)!.then((book) => yesMid(book, position.market.venueMarketId)));
    return mids.get(key)!;
  };
  return Promise.all(
    positions.map(async (position) => {
      const mark = sideMark(await midFor(position), position.side);
      const state = { quantity: new Decimal(position.quantity.toString()), cost: new Decimal(position.costBasis.toString()) };
      return { ...position, averageCost: averageCostOf(state), markPrice: mark, unrealizedPnl: mark === null ? null : unrealizedPnl(state, mark) };
    }),
  );
}

/** Every open position of the scope (optionally one subaccount or market), marked to the mid of the book its account trades on. */
export async function listPositions(db: Db, venues: VenueRegistry, scope: Scope, filter: PositionFilter) {
  const where = await openPositionsWhere(db, scope, filter);
  return markPositions(venues, await db.position.findMany({ where, include: { market: true }, orderBy: POSITION_ORDER }));
}

const isPositionCursor = (value: unknown): value is { s: string; m: string; side: 'yes' | 'no' } => {
  const v = value as { s?: unknown; m?: unknown; side?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.s === 'string' && typeof v.m === 'string' && (v.side === 'yes' || v.side === 'no');
};

/**
 * The positions after the cursor's in POSITION_ORDER: a keyset on (subaccount, market, side), so a
 * position closed between two pages shifts nothing. Sides sort in the enum's declared order (as
 * PostgreSQL sorts an enum), which Prisma cannot compare with gt: the later sides are listed.
 */
function positionsAfter(after: { s: string; m: string; side: OrderSide }) {
  const sides = Object.values(OrderSide);
  return {
    OR: [
      { subaccountId: { gt: after.s } },
      { subaccountId: after.s, marketId: { gt: after.m } },
      { subaccountId: after.s, marketId: after.m, side: { in: sides.slice(sides.indexOf(after.side) + 1) } },
    ],
  };
}

/** One page of listPositions, by cursor. */
export async function listPositionsPage(
  db: Db,
  venues: VenueRegistry,
  scope: Scope,
  filter: PositionFilter & { limit?: number | null; cursor?: string | null },
): Promise<Page<MarkedPosition>> {
  const limit = parseLimit(filter.limit);
  const after = decodeCursor(filter.cursor, isPositionCursor);
  const where = await openPositionsWhere(db, scope, filter);
  const rows = await db.position.findMany({
    where: after ? { AND: [where, positionsAfter(after)] } : where,
    include: { market: true },
    orderBy: POSITION_ORDER,
    take: limit + 1,
  });
  const page = toPage(rows, limit, (row) => ({ s: row.subaccountId, m: row.marketId, side: row.side }));
  return { ...page, data: await markPositions(venues, page.data) };
}

export type MarkedPosition = Awaited<ReturnType<typeof listPositions>>[number];

/**
 * Balances and exposure per subaccount: cash (simulated for test subaccounts; for a live subaccount
 * with credentials, the venues' balances read now, with its venue accounts compared), cash reserved by
 * open buy orders, positions at cost and marked, realized P&L (all time and today, UTC),
 * unrealized P&L, gross exposure (positions at cost + open buy orders) and equity (cash + marked
 * positions).
 */
export async function portfolio(db: Db, venues: VenueRegistry, scope: Scope, filter: { subaccountId?: string | null }) {
  const subaccounts = filter.subaccountId != null
    ? [await getSubaccount(db, scope, filter.subaccountId)]
    : await db.subaccount.findMany({
        where: { workspaceId: scope.workspaceId, environment: scope.environment, status: 'active' },
        orderBy: { id: 'asc' },
      });
  const positions = await listPositions(db, venues, scope, filter);
  const ids = subaccounts.map((s) => s.id);
  const totals = ids.length
    ? await db.$queryRaw<{ subaccount_id: string; reserved: string; realized: string; realized_today: string }[]>`
        SELECT s.id AS subaccount_id,
          coalesce((SELECT sum((o.quantity - o.filled_quantity) * coalesce(o.price, 1)) FROM orders o
                     WHERE o.subaccount_id = s.id AND o.action = 'buy'
                       AND o.status IN ${sqlList(WORKING_STATUSES)}), 0)::text AS reserved,
          coalesce((SELECT sum(p.realized_pnl) FROM daily_pnl p WHERE p.subaccount_id = s.id), 0)::text AS realized,
          coalesce((SELECT p.realized_pnl FROM daily_pnl p WHERE p.subaccount_id = s.id
                     AND p.day = (now() AT TIME ZONE 'UTC')::date), 0)::text AS realized_today
          FROM subaccounts s WHERE s.id = ANY(${ids})`
    : [];
  const byId = new Map(totals.map((row) => [row.subaccount_id, row]));
  // Live subaccounts: the venues hold the cash; their accounts are read now and compared with ours.
  const venueAccounts = new Map<string, VenueAccountView[]>(
    scope.environment === 'live' ? await Promise.all(subaccounts.map(async (s) => [s.id, await venueAccountsOf(db, venues, s.id)] as const)) : [],
  );
  return subaccounts.map((subaccount) => {
    const mine = positions.filter((p) => p.subaccountId === subaccount.id);
    const cost = sum(mine.map((p) => new Decimal(p.costBasis.toString())));
    // An unmarked position (no two-sided book) is valued at its cost basis.
    const marked = sum(mine.map((p) => (p.markPrice === null ? new Decimal(p.costBasis.toString()) : p.markPrice.mul(p.quantity.toString()))));
    const row = byId.get(subaccount.id);
    const reserved = new Decimal(row?.reserved ?? 0);
    const accounts = venueAccounts.get(subaccount.id) ?? [];
    const cash = accounts.length > 0 ? sum(accounts.map((account) => account.balance)) : new Decimal(subaccount.cashBalance.toString());
    return {
      subaccountId: subaccount.id,
      cashBalance: cash,
      reservedCash: reserved,
      availableCash: cash.sub(reserved),
      positionsCost: cost,
      positionsValue: marked,
      unrealizedPnl: marked.sub(cost),
      realizedPnl: new Decimal(row?.realized ?? 0),
      realizedPnlToday: new Decimal(row?.realized_today ?? 0),
      grossExposure: cost.add(reserved),
      equity: cash.add(marked),
      venueAccounts: accounts,
    };
  });
}

const sum = (values: Decimal[]) => values.reduce((a, b) => a.add(b), new Decimal(0));
