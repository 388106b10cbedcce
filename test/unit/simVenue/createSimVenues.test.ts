import { createSimVenues, SimVenue, type SimCatalogMarket } from '../../../core/venues/sim';
import { fixedClock } from './simVenueFixtures';

const CATALOG: SimCatalogMarket[] = [
  { venue: 'sim_kalshi', venueMarketId: 'FED-CUT-DEC', tickSize: '0.01', minSize: '1', fairValue: '0.62' },
  { venue: 'sim_polymarket', venueMarketId: 'pm-fed-cut-dec', tickSize: '0.01', minSize: '5', fairValue: '0.62' },
  { venue: 'sim-kalshi', venueMarketId: 'GDP-Q-NEG', tickSize: '0.0100', minSize: '1', fairValue: '0.12' },
  { venue: 'sim_polymarket', venueMarketId: 'pm-gdp-q-neg', tickSize: '0.001', minSize: '5', fairValue: '0.12' },
  { venue: 'polymarket', venueMarketId: 'live-token', tickSize: '0.01', minSize: '5', fairValue: '0.5' },
];

describe('createSimVenues', () => {
  it('builds both simulated venues with their own markets, from database or API venue spellings', () => {
    const venues = createSimVenues(CATALOG, { seed: 1, clock: fixedClock });
    expect([...venues.keys()]).toEqual(['sim-kalshi', 'sim-polymarket']);
    const kalshi = venues.get('sim-kalshi')!;
    const polymarket = venues.get('sim-polymarket')!;
    expect(kalshi).toBeInstanceOf(SimVenue);
    expect(kalshi.name).toBe('sim-kalshi');
    expect(kalshi.marketIds()).toEqual(['FED-CUT-DEC', 'GDP-Q-NEG']);
    expect(polymarket.marketIds()).toEqual(['pm-fed-cut-dec', 'pm-gdp-q-neg']);
  });

  it('gives the same books for the same seed', async () => {
    const first = createSimVenues(CATALOG, { seed: 9, clock: fixedClock });
    const second = createSimVenues(CATALOG, { seed: 9 });
    // The same levels; each book's asOf is when its venue listed it (by its own clock).
    const { asOf: firstListed, ...firstBook } = await first.get('sim-polymarket')!.orderBook('pm-gdp-q-neg', 50);
    const { asOf: secondListed, ...secondBook } = await second.get('sim-polymarket')!.orderBook('pm-gdp-q-neg', 50);
    expect(secondBook).toEqual(firstBook);
    expect(firstListed).toEqual(fixedClock());
    expect(secondListed).toBeInstanceOf(Date);
  });

  it('applies the market maker options', async () => {
    const venues = createSimVenues(CATALOG, { seed: 1, marketMaker: { levels: 5, levelSpacing: '0.02' } });
    const book = await venues.get('sim-kalshi')!.orderBook('FED-CUT-DEC');
    expect(book.bids.map((level) => level.price)).toEqual(['0.6000', '0.5800', '0.5600', '0.5400', '0.5200']);
    expect(book.asks.map((level) => level.price)).toEqual(['0.6400', '0.6600', '0.6800', '0.7000', '0.7200']);
  });

  it('refuses listings that break the venue rules', () => {
    const kalshi = (overrides: Partial<SimCatalogMarket>) => [{ ...CATALOG[0]!, ...overrides }];
    expect(() => createSimVenues(kalshi({ tickSize: '0.001' }), { seed: 1 })).toThrow(/cents/);
    expect(() => createSimVenues(kalshi({ minSize: '5' }), { seed: 1 })).toThrow(/minimum size/);
    expect(() => createSimVenues(kalshi({ fairValue: '1.2' }), { seed: 1 })).toThrow(/fairValue/);
    expect(() => createSimVenues([CATALOG[1]!, { ...CATALOG[1]!, tickSize: '0.05' }], { seed: 1 })).toThrow(/tick size/);
    expect(() => createSimVenues([CATALOG[0]!, CATALOG[0]!], { seed: 1 })).toThrow(/listed twice/);
  });
});
