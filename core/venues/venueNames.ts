import type { $Enums } from '../generated/prisma/client';

/**
 * The types of a venue's two spellings, for the adapters and the services: GraphQL's and the
 * database's (sim_kalshi), and the REST API's (sim-kalshi; contract/venueSpelling.ts). Which venues
 * exist is the registry's to say, at run time (venueModules.ts): a name comes from a module, or from
 * a row the database holds only for a registered venue (the `venues` table, written from the
 * registry at start-up), and a name from outside is checked by `venueColumn`/`venueName`. Apart from
 * the registry so that an adapter can name its types without importing every module.
 */
export type VenueColumn = string;
export type VenueName = string;
/** An exchange's name (the path's `{exchange}`, the credentials' column): the database enum `Exchange`. */
export type ExchangeName = $Enums.Exchange;
