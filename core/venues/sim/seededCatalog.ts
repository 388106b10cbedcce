import type { SimCatalogMarket } from './index';

/**
 * The test environment's markets: the same questions listed on both simulated venues, each with
 * that venue's rules (sim-kalshi: cent ticks, whole contracts; sim-polymarket: per-market ticks and
 * a minimum size). Every core seeds them at start-up (core/services/catalog/simulatedCatalog.ts).
 */
interface CatalogEntry {
  ticker: string;
  title: string;
  category: string;
  description: string;
  fairValue: string;
  polymarketTick: string;
  closeInDays: number;
}

const CATALOG: CatalogEntry[] = [
  { ticker: 'FED-CUT-DEC', title: 'Will the Federal Reserve cut interest rates at its December meeting?', category: 'economics', description: 'Resolves YES if the FOMC lowers the target range for the federal funds rate at its December meeting.', fairValue: '0.62', polymarketTick: '0.01', closeInDays: 30 },
  { ticker: 'CPI-ABOVE-3', title: 'Will year-over-year CPI inflation be above 3.0% in the next release?', category: 'economics', description: 'Resolves on the headline CPI-U figure published by the Bureau of Labor Statistics.', fairValue: '0.41', polymarketTick: '0.01', closeInDays: 20 },
  { ticker: 'GDP-Q-NEG', title: 'Will US real GDP growth be negative this quarter?', category: 'economics', description: 'Resolves on the advance estimate of annualized real GDP growth.', fairValue: '0.12', polymarketTick: '0.001', closeInDays: 75 },
  { ticker: 'UNEMP-ABOVE-45', title: 'Will the unemployment rate be 4.5% or higher next month?', category: 'economics', description: 'Resolves on the headline U-3 rate in the monthly jobs report.', fairValue: '0.28', polymarketTick: '0.01', closeInDays: 35 },
  { ticker: 'BTC-100K-EOY', title: 'Will Bitcoin close the year above $100,000?', category: 'crypto', description: 'Resolves on the BTC/USD reference rate at 00:00 UTC on January 1.', fairValue: '0.55', polymarketTick: '0.01', closeInDays: 40 },
  { ticker: 'ETH-FLIP-SOL', title: 'Will Ethereum outperform Solana this month?', category: 'crypto', description: 'Compares percentage price change from the first to the last day of the month.', fairValue: '0.48', polymarketTick: '0.001', closeInDays: 25 },
  { ticker: 'SENATE-CTRL', title: 'Will the incumbent party keep control of the Senate?', category: 'politics', description: 'Resolves when the major networks project majority control after the election.', fairValue: '0.57', polymarketTick: '0.01', closeInDays: 300 },
  { ticker: 'SHUTDOWN-Q', title: 'Will there be a federal government shutdown this quarter?', category: 'politics', description: 'Resolves YES if a lapse in appropriations causes a shutdown of at least one day.', fairValue: '0.22', polymarketTick: '0.01', closeInDays: 60 },
  { ticker: 'NYC-SNOW-XMAS', title: 'Will Central Park record measurable snow on Christmas Day?', category: 'weather', description: 'Resolves on the NWS daily climate report for Central Park.', fairValue: '0.14', polymarketTick: '0.01', closeInDays: 33 },
  { ticker: 'HURRICANE-CAT5', title: 'Will a Category 5 hurricane make landfall in the US this season?', category: 'weather', description: 'Resolves on National Hurricane Center advisories.', fairValue: '0.08', polymarketTick: '0.001', closeInDays: 200 },
  { ticker: 'TEMP-RECORD-YR', title: 'Will this year be the warmest on record globally?', category: 'weather', description: 'Resolves on the NOAA annual global climate report.', fairValue: '0.71', polymarketTick: '0.01', closeInDays: 90 },
  { ticker: 'SUPERBOWL-AFC', title: 'Will an AFC team win the next Super Bowl?', category: 'sports', description: 'Resolves on the official result of the championship game.', fairValue: '0.51', polymarketTick: '0.01', closeInDays: 80 },
  { ticker: 'WORLDCUP-HOST', title: 'Will a host nation reach the World Cup semifinals?', category: 'sports', description: 'Resolves YES if any host nation plays in a semifinal.', fairValue: '0.33', polymarketTick: '0.01', closeInDays: 220 },
  { ticker: 'AI-IMO-GOLD', title: 'Will an AI system win a gold medal at the International Mathematical Olympiad?', category: 'science', description: 'Resolves on the IMO organisers\u2019 official statement.', fairValue: '0.66', polymarketTick: '0.001', closeInDays: 240 },
  { ticker: 'MARS-LAUNCH', title: 'Will a crewed Mars mission launch before the end of the decade?', category: 'science', description: 'Resolves YES on a launch carrying humans toward Mars.', fairValue: '0.06', polymarketTick: '0.0001', closeInDays: 1500 },
  { ticker: 'IPO-MEGA-Q', title: 'Will a company IPO at a valuation above $100 billion this quarter?', category: 'tech', description: 'Resolves on the first-day closing market capitalisation.', fairValue: '0.18', polymarketTick: '0.01', closeInDays: 70 },
];

const DAY_MS = 86_400_000;

/** The seeded questions grouped by category, as the venues group markets into events: each group's title. */
const GROUP_TITLES: Record<string, string> = {
  economics: 'US economy: the next decisions and releases',
  crypto: 'Crypto prices this year',
  politics: 'Washington this term',
  weather: 'Weather and climate records',
  sports: 'The next championships',
  science: 'Science milestones',
  tech: 'Tech markets',
};

/** A simulated venue's group (its event) of one category: Kalshi-style ticker on sim-kalshi, Gamma-style slug on sim-polymarket. */
export function seededEventKey(venue: 'sim_kalshi' | 'sim_polymarket', category: string): string {
  return venue === 'sim_kalshi' ? `SIM-${category.toUpperCase()}` : `sim-${category}`;
}

/** The simulated venues' events: one per category and venue, with the venue's key, title and category. */
export function seededEventRows() {
  const categories = [...new Set(CATALOG.map((entry) => entry.category))];
  return categories.flatMap((category) =>
    (['sim_kalshi', 'sim_polymarket'] as const).map((venue) => ({
      environment: 'test' as const,
      venue,
      venueEventId: seededEventKey(venue, category),
      title: GROUP_TITLES[category] ?? category,
      category,
    })),
  );
}

/** One question's listings: its venue rules on each simulated venue. */
function listingsOf(entry: CatalogEntry) {
  return [
    { venue: 'sim_kalshi' as const, venueMarketId: entry.ticker, tickSize: '0.01', minSize: '1', fairValue: entry.fairValue },
    { venue: 'sim_polymarket' as const, venueMarketId: `pm-${entry.ticker.toLowerCase()}`, tickSize: entry.polymarketTick, minSize: '5', fairValue: entry.fairValue },
  ];
}

/** Every listing of the simulated venues, as a core seeds them: what the simulated venues' service builds its books from. */
export function simulatedListings(): SimCatalogMarket[] {
  return CATALOG.flatMap(listingsOf);
}

/**
 * The catalog's rows of the test environment as of `now` (a day's start: every core seeding the same
 * day writes the same rows), without their ids.
 */
export function seededCatalogRows(now: Date) {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return CATALOG.flatMap((entry) => {
    const common = {
      environment: 'test' as const,
      questionKey: entry.ticker,
      title: entry.title,
      description: entry.description,
      category: entry.category,
      fairValue: entry.fairValue,
      closeTime: new Date(today + entry.closeInDays * DAY_MS),
    };
    return listingsOf(entry).map((listing) => ({ ...common, ...listing }));
  });
}
