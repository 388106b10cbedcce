import type { Db } from '../db/prismaClient';
import { Decimal, formatDecimal } from '../domain/decimals';
import { marketRulesOf, venueColumn, venueName, venuesOf, type VenueColumn } from './venueModules';
import { RESTING_STATUSES } from '../domain/orderLifecycle';
import type { Logger } from '../support/logger';
import { createSimVenues, type RestingOrderToRestore, type SimVenue } from './sim';
import { SimVenueService, type RemoteSimVenue, type SimVenueServiceOptions } from './sim/remote/client';
import { startFillPolling } from './sim/remote/fillPolling';
import { SIM_VENUE_NAMES } from './sim/venueModules';
import type { LiveAccounts } from './liveAccounts';
import type { LiveVenueSetup } from './venueModule';
import { observedMarketData, observedVenue, type VenueCallObserver } from './observedVenue';
import type { MarketData, SimulatedListing, Venue, VenueFill, VenueRegistry } from './venue';

/** Records the fills a venue pushed for one of our orders (idempotently); the caller owns the bookkeeping. */
export type RecordPushedFills = (orderId: string, fills: VenueFill[]) => Promise<unknown>;

/** The default seed of the simulated venues' liquidity: the same books on every start. */
export const SIM_SEED = 20261122;

export interface OpenedVenues extends VenueRegistry {
  /** The live venues' accounts, for the reconciler and the comparisons with the venue. */
  readonly live: ReadonlyMap<VenueColumn, LiveAccounts>;
  close(): Promise<void>;
}

/**
 * The venues the core trades on: the live ones handed in (`live`), and the simulated ones: those of
 * the simulated venues' service when `simVenueService` is given (several cores, one set of books;
 * docs/simulated-venues.md), else rebuilt in this core's memory at start-up: deterministic
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
  options: { seed?: number; live?: readonly LiveVenueSetup[]; observer?: VenueCallObserver; simVenueService?: SimVenueServiceSetup } = {},
): Promise<OpenedVenues> {
  const { seed = SIM_SEED, live = [], observer } = options;
  const sims: OpenedSimVenues = options.simVenueService
    ? await openSimVenueService(db, logger, options.simVenueService)
    : await openInProcessSimVenues(db, logger, recordFills, seed);
  const byColumn = new Map<VenueColumn, Venue>();
  for (const [column, venue] of sims.venues) byColumn.set(column, observer ? observedVenue(venue, observer) : venue);
  const liveByColumn = new Map(live.map((setup) => [setup.venue, setup]));
  const liveMarketData = new Map(
    live.map((setup) => [setup.venue, observer ? observedMarketData(venueName(setup.venue), setup.marketData, observer) : setup.marketData]),
  );
  return {
    marketData: (venue) => liveMarketData.get(venue) ?? byColumn.get(venue),
    forSubaccount: async (venue, subaccountId) => {
      const setup = liveByColumn.get(venue);
      if (!setup) return byColumn.get(venue);
      return setup.accounts?.forSubaccount(subaccountId);
    },
    live: new Map(live.flatMap((setup) => (setup.accounts ? [[setup.venue, setup.accounts] as const] : []))),
    listSimulatedMarket: (venue, market) => sims.list?.(venue, market) ?? false,
    async close() {
      await sims.close();
      await Promise.all(live.map(async (setup) => {
        await setup.accounts?.closeAll();
        await setup.close?.();
      }));
    },
  };
}

/** The simulated venues a core trades on, and what closing them takes. */
interface OpenedSimVenues {
  venues: ReadonlyMap<VenueColumn, Venue>;
  /** In this core's memory: lists a market now (VenueRegistry.listSimulatedMarket). */
  list?(venue: VenueColumn, market: SimulatedListing): boolean;
  close(): Promise<void>;
}

/**
 * `npm start` and every core without SIM_VENUE_URL: the simulated venues in this core's memory,
 * rebuilt from the catalog rows of its database, its resting orders restored, and the fills they
 * push recorded as they come.
 */
async function openInProcessSimVenues(db: Db, logger: Logger, recordFills: RecordPushedFills, seed: number): Promise<OpenedSimVenues> {
  const simulated = venuesOf('test');
  const markets = await db.market.findMany({ where: { environment: 'test', venue: { in: simulated.map(venueColumn) } } });
  const sims = createSimVenues(
    markets.map((m) => ({
      venue: m.venue,
      venueMarketId: m.venueMarketId,
      tickSize: formatDecimal(m.tickSize),
      minSize: formatDecimal(m.minSize),
      fairValue: formatDecimal(m.fairValue ?? '0.5'),
      rules: marketRulesOf(m),
    })),
    { seed, venues: simulated },
  );
  const venues = new Map<VenueColumn, Venue>();
  const byColumn = new Map<VenueColumn, SimVenue>();
  const unsubscribe: (() => void)[] = [];
  for (const [name, venue] of sims) {
    byColumn.set(venueColumn(name), venue);
    const column = venueColumn(name);
    venues.set(column, venue);
    await restoreResting(db, column, (orders) => venue.restoreRestingOrders(orders), venue.marketIds());
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
  const list = (column: VenueColumn, market: SimulatedListing) => {
    const venue = byColumn.get(column);
    if (!venue) return false;
    venue.listMarket(market);
    return true;
  };
  return { venues, list, close: async () => unsubscribe.forEach((stop) => stop()) };
}

/** Where a core finds the simulated venues' service (SIM_VENUE_URL), and how it records the fills it reads there. */
export interface SimVenueServiceSetup extends SimVenueServiceOptions {
  /** How often the fills are read (SIM_VENUE_POLL_MS). */
  pollIntervalMs: number;
  /** Records fills of this core's orders, idempotently by venue fill id. */
  recordFills: (venue: VenueColumn, fills: VenueFill[]) => Promise<unknown>;
}

/**
 * Cores with SIM_VENUE_URL: the simulated venues of the service every such core shares
 * (docs/simulated-venues.md "As a service"). A service not reachable yet does not stop the core:
 * its orders answer `venue_unavailable` until it is, and the polling restores and catches up then.
 */
async function openSimVenueService(db: Db, logger: Logger, setup: SimVenueServiceSetup): Promise<OpenedSimVenues> {
  const service = new SimVenueService(setup);
  const venues = new Map<VenueColumn, RemoteSimVenue>(SIM_VENUE_NAMES.map((name) => [venueColumn(name), service.venue(name)]));
  const polling = startFillPolling({
    service,
    venues,
    restore: (column, remote) => restoreResting(db, column, (orders) => remote.restoreRestingOrders(orders)),
    record: (column, fills) => recordOurFills(db, column, fills, setup.recordFills),
    intervalMs: setup.pollIntervalMs,
    logger,
  });
  await polling.round().catch((error: unknown) =>
    logger.warn({ err: error, url: setup.url }, 'the simulated venues\' service cannot be reached yet; retrying every SIM_VENUE_POLL_MS'),
  );
  return {
    venues,
    async close() {
      await polling.stop();
      await service.close();
    },
  };
}

/** The fills among `fills` of this database's orders (the service also fills orders of databases other cores use). */
async function recordOurFills(db: Db, venue: VenueColumn, fills: VenueFill[], record: SimVenueServiceSetup['recordFills']) {
  const ids = [...new Set(fills.map((fill) => fill.clientOrderId))];
  const ours = new Set((await db.order.findMany({ where: { venue, id: { in: ids } }, select: { id: true } })).map((order) => order.id));
  const mine = fills.filter((fill) => ours.has(fill.clientOrderId));
  if (mine.length > 0) await record(venue, mine);
}

/**
 * Puts the venue's resting limit orders back on its books. An in-process venue takes those of the
 * markets it lists (`listed`): a market made after this core read its catalog (a test helper's,
 * by another core sharing the database meanwhile) is not on its books, nor are its orders.
 */
async function restoreResting(
  db: Db,
  venue: VenueColumn,
  restore: (orders: RestingOrderToRestore[]) => unknown,
  listed?: readonly string[],
) {
  const resting = await db.order.findMany({
    where: { venue, status: { in: [...RESTING_STATUSES] }, type: 'limit', ...(listed ? { market: { venueMarketId: { in: [...listed] } } } : {}) },
    include: { market: { select: { venueMarketId: true } } },
    orderBy: { id: 'asc' },
  });
  if (resting.length === 0) return;
  await restore(
    resting.map((o) => ({
      clientOrderId: o.id,
      venueMarketId: o.market.venueMarketId,
      side: o.side,
      action: o.action,
      price: formatDecimal(o.price!),
      remainingQuantity: new Decimal(o.quantity.toString()).sub(o.filledQuantity.toString()).toFixed(),
      filledQuantity: formatDecimal(o.filledQuantity),
      ...(o.expiresAt ? { expiresAt: o.expiresAt.toISOString() } : {}),
    })),
  );
}

