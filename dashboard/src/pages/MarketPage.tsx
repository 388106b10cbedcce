import { useState } from 'react';
import { DepthPanel } from '../components/DepthPanel';
import { Id } from '../components/Id';
import { LiveMarker } from '../components/LiveMarker';
import { marketStanding } from '../components/MarketName';
import { PageLayout } from '../components/PageLayout';
import { PricePanel } from '../components/PricePanel';
import { QuotePanel } from '../components/QuotePanel';
import { RecentTradesTable } from '../components/RecentTradesTable';
import { formatTime } from '../format';
import { useSession } from '../session';
import type { MarketTrade, QuotedMarket } from '../types';
import { quoteOf, useLiveMarket } from '../useLiveMarket';
import { useQuotedMarket } from '../useQuotedMarket';
import { useRecentTrades } from '../useRecentTrades';

/**
 * One market (`#/market/<id>`, reached from the market names in the tables): its quote, the depth
 * of its book, its price by candle and its recent trades, kept current by the market-data stream
 * while shown. A market the API does not know, or another workspace's, is said to be not found.
 */
export function MarketPage({ marketId }: { marketId: string }) {
  const read = useQuotedMarket(marketId);
  if (read.state === 'found') return <MarketView market={read.market} />;
  if (read.state === 'missing') return <MarketNotFound marketId={marketId} />;
  return (
    <PageLayout title="Market" testId="market-page-loading">
      <p className="muted">{read.state === 'loading' ? 'Loading…' : 'The market could not be read.'}</p>
    </PageLayout>
  );
}

function MarketNotFound({ marketId }: { marketId: string }) {
  const { environment } = useSession();
  return (
    <PageLayout title="Market not found" testId="market-not-found">
      <p className="notice">
        There is no market <code>{marketId}</code> in this workspace’s {environment} environment.
      </p>
    </PageLayout>
  );
}

function MarketView({ market }: { market: QuotedMarket }) {
  const trades = useRecentTrades(market.id);
  const [tradesSeen, setTradesSeen] = useState(0);
  const onTrade = (trade: MarketTrade) => {
    trades.add(trade);
    setTradesSeen((count) => count + 1);
  };
  const { live, quote, book, mid } = useLiveMarket(market.id, quoteOf(market, market.as_of), { onSnapshot: trades.reload, onTrade });

  return (
    <PageLayout title={market.title} testId="market-page" filters={<LiveMarker state={live} testId="market-live" />}>
      <MarketHeading market={market} />
      <QuotePanel quote={quote} marketId={market.id} />
      <div className="two-columns">
        <DepthPanel book={book} mid={mid} tickSize={market.tick_size} />
        <PricePanel marketId={market.id} tickSize={market.tick_size} tradesSeen={tradesSeen} />
      </div>
      <div className="panel">
        <h3>Recent trades</h3>
        <RecentTradesTable trades={trades.trades} marketId={market.id} />
      </div>
    </PageLayout>
  );
}

/** Under the title: the venue, its ticker, where the market stands (open, closed, settled yes…), its close time and our id. */
function MarketHeading({ market }: { market: QuotedMarket }) {
  const standing = marketStanding(market) ?? market.status;
  return (
    <p className="market-heading" data-testid="market-heading">
      <span className="badge" data-testid="market-venue">
        {market.venue}
      </span>
      <code data-testid="market-ticker">{market.venue_market_id}</code>
      <span className={`status status-${market.status}`} data-testid="market-status">
        {standing}
      </span>
      {market.close_time && <span className="muted">closes {formatTime(market.close_time)}</span>}
      <Id value={market.id} />
    </p>
  );
}
