/**
 * The fixed points the Polymarket fake keeps its books in (the project's matching engine,
 * core/domain/matching): prices in 0.0001 ticks, sizes in 0.01-share units. Not venue values: the
 * venue speaks decimal strings; these only say how the fake stores them. exchange.ts re-exports
 * them (its callers import them from there); bookSummary.ts reads them here, so that the two do not
 * import each other.
 */
export const PRICE_TICKS_PER_DOLLAR = 10_000;
export const UNITS_PER_SHARE = 100;
