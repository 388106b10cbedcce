import { columnVenueSpelling, restVenueSpelling } from '../../contract/venueSpelling';

/** Venue names as the API spells them, and as the database enum stores them. */
export const VENUES = ['sim-kalshi', 'sim-polymarket', 'kalshi', 'polymarket'] as const;
export type VenueName = (typeof VENUES)[number];
export type VenueColumn = 'sim_kalshi' | 'sim_polymarket' | 'kalshi' | 'polymarket';

export const venueColumn = (name: VenueName): VenueColumn => columnVenueSpelling(name) as VenueColumn;
export const venueName = (column: VenueColumn): VenueName => restVenueSpelling(column) as VenueName;
export const isVenueName = (value: string): value is VenueName => (VENUES as readonly string[]).includes(value);

/** Test keys trade only on the simulated venues; live keys only on the real ones. */
export const isSimulated = (venue: VenueName) => venue.startsWith('sim-');

/**
 * Venues whose matched trades can still fail to settle, so a recorded fill may be reversed later:
 * Polymarket (CLOB V2: a trade is MATCHED off chain, then MINED and CONFIRMED, or FAILED). Kalshi's
 * and the simulated venues' fills are final.
 */
export const tradesCanFail = (venue: VenueColumn): boolean => venue === 'polymarket';
