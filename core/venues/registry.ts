import type { Db } from '../db/prismaClient';
import { Decimal, formatDecimal } from '../domain/decimals';
import { venueName, type VenueColumn } from '../domain/venues';
import { RESTING_STATUSES } from '../domain/orderLifecycle';
import type { Logger } from '../support/logger';
import { createSimVenues } from './sim';
import type { LiveAccounts } from './liveAccounts';
import { observedMarketData, observedVenue, type VenueCallObserver } from './observedVenue';
import type { MarketData, Venue, VenueFill, VenueRegistry } from './venue';

/** Records the fills a venue pushed for one of our orders (idempotently); the caller owns the bookkeeping. */
export type RecordPushedFills = (orderId: string, fills: VenueFill[]) => Promise<unknown>;

/** The default seed of the simulated venues' liquidity: the same books on every start. */
export const SIM_SEED = 20261122;

/** A live venue as the registry holds it: its accounts (one per subaccount credential) and its public market data. */
export interface LiveVenueSetup {
  venue: VenueColumn;
  accounts: LiveAccounts;
  marketData: MarketData;
  /** Closes what the setup holds beyond its accounts (market data connections). */
  close?: () => Promise<void>;
}

export interface OpenedVenues extends VenueRegistry {
  /** The live venues' accounts, for the reconciler and the comparisons with the venue. */
  readonly live: ReadonlyMap<VenueColumn, LiveAccounts>;
  close(): Promise<void>;
}

/**
 * The venues the core trades on: the live ones handed in (`live`), and the simulated ones, rebuilt at start-up: deterministic
 * market-maker liquidity from the seed, then the client orders the database says were resting,
 * put back in their original time order ahead of the market maker. Fills the venues push (someone
 * traded against a resting order) are recorded as they come, by `recordFills`; recording is idempotent.
 * `observer` hears of every call made through the registry (a live venue's accounts report their
 * own, through LiveAccounts).
 */
export async function openVenues(
  db: Db,
  logger: Logger,
  recordFills: RecordPushedFills,
  options: { seed?: number; live?: readonly LiveVenueSetup[]; observer?: VenueCallObserver } = {},
): Promise<OpenedVenues> {
  const { seed = SIM_SEED, live = [], observer } = options;
  const markets = await db.market.findMany({ where: { environment: 'test', venue: { in: ['sim_kalshi', 'sim_polymarket'] } } });
  const sims = createSimVenues(
    markets.map((m) => ({
      venue: m.venue,
      venueMarketId: m.venueMarketId,
      tickSize: formatDecimal(m.tickSize),
      minSize: formatDecimal(m.minSize),
      fairValue: formatDecimal(m.fairValue ?? '0.5'),
    })),
    { seed },
  );
  const byColumn = new Map<VenueColumn, Venue>();
  const unsubscribe: (() => void)[] = [];
  for (const [name, venue] of sims) {
    const column = name.replace('-', '_') as VenueColumn;
    byColumn.set(column, observer ? observedVenue(venue, observer) : venue);
    await restoreResting(db, column, venue.restoreRestingOrders.bind(venue));
    unsubscribe.push(
      venue.onFills((fills) => {
        for (const orderId of new Set(fills.map((f) => f.clientOrderId))) {
          recordFills(orderId, fills).catch((error: unknown) =>
            logger.error({ err: error, orderId, venue: name }, 'could not record pushed fills; reconcile with listFills'),
          );
        }
      }),
    );
  }
  const liveByColumn = new Map(live.map((setup) => [setup.venue, setup]));
  const liveMarketData = new Map(
    live.map((setup) => [setup.venue, observer ? observedMarketData(venueName(setup.venue), setup.marketData, observer) : setup.marketData]),
  );
  return {
    marketData: (venue) => liveMarketData.get(venue) ?? byColumn.get(venue),
    forSubaccount: async (venue, subaccountId) => {
      const setup = liveByColumn.get(venue);
      return setup ? setup.accounts.forSubaccount(subaccountId) : byColumn.get(venue);
    },
    live: new Map(live.map((setup) => [setup.venue, setup.accounts])),
    async close() {
      unsubscribe.forEach((stop) => stop());
      await Promise.all(live.map(async (setup) => {
        await setup.accounts.closeAll();
        await setup.close?.();
      }));
    },
  };
}

async function restoreResting(
  db: Db,
  venue: VenueColumn,
  restore: (orders: { clientOrderId: string; venueMarketId: string; side: 'yes' | 'no'; action: 'buy' | 'sell'; price: string; remainingQuantity: string; filledQuantity: string }[]) => unknown,
) {
  const resting = await db.order.findMany({
    where: { venue, status: { in: [...RESTING_STATUSES] }, type: 'limit' },
    include: { market: { select: { venueMarketId: true } } },
    orderBy: { id: 'asc' },
  });
  if (resting.length === 0) return;
  restore(
    resting.map((o) => ({
      clientOrderId: o.id,
      venueMarketId: o.market.venueMarketId,
      side: o.side,
      action: o.action,
      price: formatDecimal(o.price!),
      remainingQuantity: new Decimal(o.quantity.toString()).sub(o.filledQuantity.toString()).toFixed(),
      filledQuantity: formatDecimal(o.filledQuantity),
    })),
  );
}

