/**
 * A venue's two spellings: the REST API's (sim-kalshi) and the one of GraphQL enums and database
 * columns (sim_kalshi), where a name cannot hold a hyphen. Which venues exist is the core's venue
 * registry's to say (core/venues/registry.ts); how a name is spelled on each side is said here.
 */
export const restVenueSpelling = (columnName: string): string => columnName.replaceAll('_', '-');
export const columnVenueSpelling = (restName: string): string => restName.replaceAll('-', '_');
