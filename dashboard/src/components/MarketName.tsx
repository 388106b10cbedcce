import { segment } from '../api';
import { formatPrice } from '../format';
import type { Market } from '../types';
import { useMarket } from '../useMarkets';
import { Id } from './Id';

/**
 * Where a market stands, when not open: `closed`, `determined yes`, `settled at 0.37`, `settled
 * void`; null while it trades.
 */
export function marketStanding(market: Market): string | null {
  if (market.status === 'open') return null;
  if (market.result === null) return market.status;
  const outcome = market.result === 'scalar' ? `at ${formatPrice(market.settlement_value)}` : market.result;
  return `${market.status} ${outcome}`;
}

/**
 * A market in a table: its title, and the venue's ticker (or market id) small under it, with where
 * it stands once it is not open (closed, determined, settled and its result); the title again, the
 * venue and our id on hover. A link to the market's page (`#/market/<id>`). The id alone while the
 * market is being read, or when the API does not know it.
 */
export function MarketName({ id }: { id: string }) {
  const market = useMarket(id);
  if (!market) return <Id value={id} />;
  const standing = marketStanding(market);
  return (
    <a
      className="market"
      href={`#/market/${segment(id)}`}
      data-market-id={id}
      data-status={market.status}
      title={`${market.title}\n${market.venue} ${market.venue_market_id}\n${market.id}`}
    >
      <span className="market-title">{market.title}</span>
      <code className="market-ticker">
        {market.venue_market_id}
        {standing !== null && <span className="market-standing"> · {standing}</span>}
      </code>
    </a>
  );
}
