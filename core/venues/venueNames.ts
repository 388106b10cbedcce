import type { $Enums } from '../generated/prisma/client';

/**
 * The types of a venue's two spellings, for the adapters and the services: GraphQL's and the
 * database's (sim_kalshi) is the database enum `Venue`; the REST API's (sim-kalshi) follows from it
 * (contract/venueSpelling.ts). Which venues exist is the registry's to say (venueModules.ts), and it
 * does not compile while its modules and this enum differ. Apart from the registry so that an
 * adapter can name its types without importing every module.
 */
export type VenueColumn = $Enums.Venue;
type Hyphenated<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}-${Hyphenated<Tail>}` : S;
export type VenueName = Hyphenated<VenueColumn>;
/** An exchange's name (the path's `{exchange}`, the credentials' column): the database enum `Exchange`. */
export type ExchangeName = $Enums.Exchange;
