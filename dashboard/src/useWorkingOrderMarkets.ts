import { useEffect } from 'react';
import type { Order, Page } from './types';
import { useApiData } from './useApiData';

/** How many working orders are looked at for their markets: one page of the API's largest. */
const ORDERS_LOOKED_AT = 200;

/**
 * The markets of the working orders (pending, open, partly filled, unknown) of `subaccountId` (every
 * subaccount's when ""), from the newest ORDERS_LOOKED_AT of them: the markets worth filtering the
 * orders by, and canceling in. Read again whenever `generation` changes.
 */
export function useWorkingOrderMarkets(subaccountId: string, generation: number): string[] {
  const { data, reload } = useApiData<Page<Order>>('/v1/orders', {
    status: 'working',
    subaccount_id: subaccountId || undefined,
    limit: ORDERS_LOOKED_AT,
  });
  useEffect(() => {
    if (generation > 0) reload();
  }, [generation, reload]);
  return [...new Set((data?.data ?? []).map((order) => order.market_id))];
}
