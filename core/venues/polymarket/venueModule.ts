import { formatDecimal } from '../../domain/decimals';
import { polymarketMarketRules, type PolymarketTickSize } from '../../domain/venueRules';
import type { VenueModule } from '../venueModule';
import { polymarketCredentialShape } from './credentials';

/**
 * Live Polymarket (CLOB V2, docs/polymarket.md), on the exchange of the same name: a wallet (its
 * key, signature type and funder; API credentials optional). A market's rules are its tick size and
 * minimum size as Gamma lists them, with Polymarket's fee formula (domain/venueRules/polymarket.ts).
 * Its trades can fail after they matched (FAILED on chain): such a fill is reversed.
 */
export const polymarketVenueModule = {
  name: 'polymarket',
  environment: 'live',
  exchange: { name: 'polymarket', checkCredential: polymarketCredentialShape },
  capabilities: { tradesCanFail: true },
  marketRules: (row) => polymarketMarketRules({ tickSize: formatDecimal(row.tickSize) as PolymarketTickSize, minOrderSize: formatDecimal(row.minSize) }),
} as const satisfies VenueModule<'polymarket'>;
