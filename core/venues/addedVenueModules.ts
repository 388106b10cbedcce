import type { VenueModule } from './venueModule';

/**
 * Venue modules a program adds to the registry beyond the built-in ones, before the core is
 * loaded: the registry (venueModules.ts) reads them once, as it loads, and every list derived from
 * it (the GraphQL enums, the database's `venues` rows, the simulated venues opened) includes them.
 * The test suite adds a test-only venue this way (test/venues/addedVenue.test.ts); a venue of the
 * product is a folder and a line in the registry instead (docs/house-plan.md, "A venue").
 * Apart from the registry so that adding one does not load it.
 */
const added: VenueModule[] = [];
let taken = false;

/** Adds a venue module; throws once the registry has loaded (it would not see the module). */
export function addVenueModule(module: VenueModule): void {
  if (taken) throw new Error(`venue module ${module.name} was added after the venue registry loaded: add it before the core is imported`);
  added.push(module);
}

/** The modules added so far; from now on, adding one throws. For the registry alone. */
export function takeAddedVenueModules(): readonly VenueModule[] {
  taken = true;
  return [...added];
}
