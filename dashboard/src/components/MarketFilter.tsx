import type { Market } from '../types';
import { useMarkets } from '../useMarkets';
import { SelectField } from './Field';

/** A market as an option: its title and the venue's ticker, or its id until it has been read. */
const labelOf = (id: string, market: Market | undefined) => (market ? `${market.title} (${market.venue_market_id})` : id);

/**
 * A "Market" <select> over `marketIds` (the one chosen stays among them), "All markets" first; option
 * values are market ids. The id is also the test id.
 */
export function MarketFilter({ id, marketIds, value, onChange }: { id: string; marketIds: string[]; value: string; onChange: (id: string) => void }) {
  const ids = value && !marketIds.includes(value) ? [...marketIds, value] : marketIds;
  const marketOf = useMarkets(ids);
  const options = ids.map((marketId) => ({ value: marketId, label: labelOf(marketId, marketOf(marketId)) })).sort((a, b) => a.label.localeCompare(b.label));
  return <SelectField id={id} label="Market" options={options} value={value} onValue={onChange} emptyOption="All markets" />;
}
