import type { Environment } from '../../contract/environment';
import { columnVenueSpelling, restVenueSpelling } from '../../contract/venueSpelling';
import { invalidRequest } from '../domain/errors';
import type { MarketRulesRow } from '../domain/marketRules';
import type { MarketRules } from '../domain/venueRules';
import { kalshiVenueModule } from './kalshi/venueModule';
import { polymarketVenueModule } from './polymarket/venueModule';
import { SIM_VENUE_MODULES } from './sim/venueModules';
import { takeAddedVenueModules } from './addedVenueModules';
import type { ExchangeModule, VenueModule } from './venueModule';
import type { ExchangeName, VenueColumn, VenueName } from './venueNames';

/**
 * The registry: every venue the core knows, one module each (venueModule.ts). This is the one list
 * of venues and exchanges; the GraphQL enums, the gateway's validation (from the schema), the
 * exchanges whose credentials can be attached and every lookup below are derived from it. Adding a
 * venue is a folder under core/venues/ and a line here (docs/house-plan.md, "A venue").
 */
const MODULES = [...SIM_VENUE_MODULES, kalshiVenueModule, polymarketVenueModule] as const;
export const VENUE_MODULES: readonly VenueModule[] = checkedRegistry([...MODULES, ...takeAddedVenueModules()]);

export type { ExchangeName, VenueColumn, VenueName } from './venueNames';

// The database's exchange enum (venueNames.ts) is the registry's: an exchange added to a module and
// not to prisma/schema.prisma (or the other way round) does not compile. Venues need no such pair:
// the database's `venues` rows are written from this registry (services/catalog/knownVenues.ts).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type ModuleExchange = NonNullable<(typeof MODULES)[number] extends infer M ? (M extends { exchange: { name: infer N } } ? N : never) : never>;
const exchangeEnumIsTheRegistry: Same<ModuleExchange, ExchangeName> = true;
void exchangeEnumIsTheRegistry;

/**
 * The registry as the rest of the core relies on it: every name once, spelled the REST API's way
 * (lower case, words joined by hyphens: its database spelling joins them by underscores), and an
 * exchange the database knows (its `Exchange` enum: the built-in modules' exchanges).
 */
function checkedRegistry(modules: readonly VenueModule[]): readonly VenueModule[] {
  const knownExchanges = new Set<string>(MODULES.flatMap((module) => ('exchange' in module ? [module.exchange.name] : [])));
  const seen = new Set<string>();
  for (const module of modules) {
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(module.name)) throw new Error(`venue module name ${JSON.stringify(module.name)} is not lower-case words joined by hyphens`);
    if (seen.has(module.name)) throw new Error(`two venue modules are named ${module.name}`);
    if (module.exchange && !knownExchanges.has(module.exchange.name)) throw new Error(`venue module ${module.name}: exchange ${module.exchange.name} is not one the database knows`);
    seen.add(module.name);
  }
  return modules;
}

const byName = new Map<string, VenueModule>(VENUE_MODULES.map((module) => [module.name, module]));

export const VENUE_NAMES: readonly VenueName[] = VENUE_MODULES.map((module) => module.name);
export const VENUE_COLUMNS: readonly VenueColumn[] = VENUE_NAMES.map((name) => venueColumn(name));

/** Every exchange of a live venue, once each, in registry order. */
export const EXCHANGES: readonly ExchangeModule<ExchangeName>[] = [
  ...new Map(VENUE_MODULES.flatMap((module) => (module.exchange ? [module.exchange as ExchangeModule<ExchangeName>] : [])).map((exchange) => [exchange.name, exchange])).values(),
];
export const EXCHANGE_NAMES: readonly ExchangeName[] = EXCHANGES.map((exchange) => exchange.name);

/** A venue's database and GraphQL spelling, from either spelling of a registered venue (anything else throws). */
export function venueColumn(venue: string): VenueColumn {
  return columnVenueSpelling(venueModule(venue).name) as VenueColumn;
}
/** A venue's REST spelling, from either spelling of a registered venue (anything else throws). */
export function venueName(venue: string): VenueName {
  return venueModule(venue).name as VenueName;
}
export const isVenueName = (value: string): value is VenueName => byName.has(value);

/** A request's optional venue filter (REST spelling) as the column the database stores; null when none; an unknown venue is 400 (param venue). */
export function venueFilterColumn(venue: string | null | undefined): VenueColumn | null {
  if (venue == null) return null;
  if (!isVenueName(venue)) throw invalidRequest('venue', `venue must be one of ${VENUE_NAMES.join(', ')}.`);
  return venueColumn(venue);
}
export const isExchangeName = (value: string): value is ExchangeName => (EXCHANGE_NAMES as readonly string[]).includes(value);

/** The module of a venue, by either spelling. */
export function venueModule(venue: string): VenueModule {
  const found = byName.get(restVenueSpelling(venue));
  if (!found) throw new Error(`no venue module named ${venue}`);
  return found;
}

/** Test keys trade only on the test environment's venues; live keys only on the live ones. */
export const venuesOf = (environment: Environment): readonly VenueName[] =>
  VENUE_NAMES.filter((name) => venueModule(name).environment === environment);
export const isSimulated = (venue: VenueName | VenueColumn): boolean => venueModule(venue).environment === 'test';

/** The exchange whose credentials trade on a live venue; undefined for a simulated one. */
export const exchangeOf = (venue: VenueName | VenueColumn): ExchangeName | undefined => venueModule(venue).exchange?.name as ExchangeName | undefined;

/** Venues whose matched trades can still fail to settle, so that a recorded fill may be reversed later (VenueCapabilities). */
export const tradesCanFail = (venue: VenueName | VenueColumn): boolean => venueModule(venue).capabilities.tradesCanFail;
export const positionsNet = (venue: VenueName | VenueColumn): boolean => venueModule(venue).capabilities.positionsNet;
/** How far ahead a gtd order's expiry must be when placed on the venue (VenueCapabilities). */
export const gtdMinLeadMs = (venue: VenueName | VenueColumn): number => venueModule(venue).capabilities.gtdMinLeadMs;

/** The trading rules of a listed market, by its venue's module (VenueModule.marketRules). */
export const marketRulesOf = (row: MarketRulesRow): MarketRules => venueModule(row.venue).marketRules(row);

/** The exchange module of an exchange's name (the path's `{exchange}`). */
export function exchangeModule(name: ExchangeName): ExchangeModule<ExchangeName> {
  return EXCHANGES.find((exchange) => exchange.name === name)!;
}
