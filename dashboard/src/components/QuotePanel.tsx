import type { ReactNode } from 'react';
import { formatTime } from '../format';
import type { MarketQuote } from '../types';
import { Price, Quantity } from './Figures';

/** The top of the book in YES and NO terms: each side's price and the contracts there. */
const BOOK_SIDES = [
  { label: 'YES bid', price: 'yes_bid', size: 'yes_bid_size' },
  { label: 'YES ask', price: 'yes_ask', size: 'yes_ask_size' },
  { label: 'NO bid', price: 'no_bid', size: 'no_bid_size' },
  { label: 'NO ask', price: 'no_ask', size: 'no_ask_size' },
] as const;

function QuoteCard({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="card">
      <div className="card-label">{label}</div>
      <div className="card-value">{children}</div>
    </div>
  );
}

/**
 * A market's quote (docs/market-data.md, "Quotes"): bid and ask of each outcome with their sizes,
 * the last trade's YES price, the volumes, and when the book behind it was read; `stale` when the
 * venue cannot be asked now. Prices to the market's tick, sizes and volumes as quantities (they
 * are contracts), each with its exact string in the title. Test ids `quote-<field>`.
 */
export function QuotePanel({ quote, marketId }: { quote: MarketQuote; marketId: string }) {
  return (
    <div className="panel" data-testid="market-quote" data-stale={quote.stale ? 'true' : undefined}>
      <div className="panel-head">
        <h3>Quote</h3>
        <div className="panel-tools">
          {quote.stale && (
            <span className="badge badge-stale" data-testid="quote-stale" title="The venue cannot be asked now: what is shown may be out of date.">
              stale
            </span>
          )}
          <span className="muted small">
            as of <span data-testid="quote-as_of">{formatTime(quote.as_of, { seconds: true })}</span>
          </span>
        </div>
      </div>
      <div className="cards">
        {BOOK_SIDES.map((side) => (
          <QuoteCard key={side.price} label={side.label}>
            <span data-testid={`quote-${side.price}`}>
              <Price value={quote[side.price]} marketId={marketId} />
            </span>
            {quote[side.size] !== null && (
              <span className="quote-size">
                {' × '}
                <span data-testid={`quote-${side.size}`}>
                  <Quantity value={quote[side.size]} />
                </span>
              </span>
            )}
          </QuoteCard>
        ))}
        <QuoteCard label="Last price (YES)">
          <span data-testid="quote-last_price">
            <Price value={quote.last_price} marketId={marketId} />
          </span>
        </QuoteCard>
        <QuoteCard label="Volume, 24 h">
          <span data-testid="quote-volume_24h">
            <Quantity value={quote.volume_24h} />
          </span>
        </QuoteCard>
        <QuoteCard label="Volume">
          <span data-testid="quote-volume">
            <Quantity value={quote.volume} />
          </span>
        </QuoteCard>
        {quote.open_interest !== null && (
          <QuoteCard label="Open interest">
            <span data-testid="quote-open_interest">
              <Quantity value={quote.open_interest} />
            </span>
          </QuoteCard>
        )}
      </div>
    </div>
  );
}
