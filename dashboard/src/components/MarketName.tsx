import { useMarket } from '../useMarkets';
import { Id } from './Id';

/**
 * A market in a table: its title, and the venue's ticker (or market id) small under it; the title
 * again, the venue and our id on hover. The id alone while the market is being read, or when the
 * API does not know it.
 */
export function MarketName({ id }: { id: string }) {
  const market = useMarket(id);
  if (!market) return <Id value={id} />;
  return (
    <span className="market" data-market-id={id} title={`${market.title}\n${market.venue} ${market.venue_market_id}\n${market.id}`}>
      <span className="market-title">{market.title}</span>
      <code className="market-ticker">{market.venue_market_id}</code>
    </span>
  );
}
