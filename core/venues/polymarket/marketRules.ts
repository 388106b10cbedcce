import { formatDecimal } from '../../domain/decimals';
import type { MarketRulesRow } from '../../domain/marketRules';
import { polymarketMarketRules, type MarketRules, type PolymarketTickSize } from '../../domain/venueRules';

/** A Polymarket market's rules: its tick size and minimum size as Gamma lists them, with Polymarket's fee formula (domain/venueRules/polymarket.ts). */
export const polymarketRulesOf = (row: Pick<MarketRulesRow, 'tickSize' | 'minSize'>): MarketRules =>
  polymarketMarketRules({ tickSize: formatDecimal(row.tickSize) as PolymarketTickSize, minOrderSize: formatDecimal(row.minSize) });
