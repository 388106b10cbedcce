import { invalidRequest } from './errors';

const MAX_TERMS = 8;

/** How a market search may be ordered besides its rank: `volume`, most contracts traded first. */
export const MARKET_SORTS = ['volume'] as const;

/**
 * Turns what a user types into a PostgreSQL tsquery: every word must match, each as a prefix
 * ("fed rat" finds "Fed rates"). Operators typed by the user are not interpreted.
 */
export function toPrefixTsQuery(text: string): string {
  const terms = (text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
  if (terms.length === 0) throw invalidRequest('q', 'q must contain at least one letter or digit.');
  return terms.map((term) => `${term.toLowerCase()}:*`).join(' & ');
}
