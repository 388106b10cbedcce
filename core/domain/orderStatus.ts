/** Orders that may still trade: they count against limits and reserve cash. */
export const WORKING_STATUSES = ['pending', 'open', 'partially_filled', 'unknown'] as const;

export type OrderStatusName = 'pending' | 'open' | 'partially_filled' | 'filled' | 'canceled' | 'rejected' | 'expired' | 'unknown';

export const isWorking = (status: OrderStatusName) => (WORKING_STATUSES as readonly string[]).includes(status);
