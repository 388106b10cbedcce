import { formatMoney, formatPrice, formatQuantity, formatShare, signClass } from '../format';
import { useMarket } from '../useMarkets';

/**
 * Figures as format.ts shows them, each with the exact decimal string as the API sent it in its
 * title (the hover), and in `data-exact` for tests and scripts.
 */

type Value = string | null | undefined;
const exact = (value: Value) => (value === null || value === undefined || value === '' ? undefined : value);

/** Money to the cent; `signed` colours it by the sign of what is shown (a -0.004 shown as 0.00 is not red). */
export function Money({ value, signed }: { value: Value; signed?: boolean }) {
  const text = formatMoney(value);
  return (
    <span className={['figure', signed ? signClass(text) : undefined].filter(Boolean).join(' ')} title={exact(value)} data-exact={exact(value)}>
      {text}
    </span>
  );
}

/** A price to its market's tick (read with the market; trimmed until then). */
export function Price({ value, marketId }: { value: Value; marketId: string }) {
  const market = useMarket(marketId);
  return (
    <span className="figure" title={exact(value)} data-exact={exact(value)}>
      {formatPrice(value, market?.tick_size)}
    </span>
  );
}

/** A quantity (contracts), trailing zeros trimmed. */
export function Quantity({ value }: { value: Value }) {
  return (
    <span className="figure" title={exact(value)} data-exact={exact(value)}>
      {formatQuantity(value)}
    </span>
  );
}

/** A share (a limit's utilisation) as a percentage. */
export function Share({ value }: { value: Value }) {
  return (
    <span className="figure" title={exact(value)} data-exact={exact(value)}>
      {formatShare(value)}
    </span>
  );
}
