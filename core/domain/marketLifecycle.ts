/**
 * A market's lifecycle, the same on every venue (docs/settlement.md): open -> paused (trading
 * halted, may reopen) -> closed (no new orders, awaiting the result) -> determined (the result is
 * known; on Kalshi a dispute may amend it) -> settled (positions paid). Only an open market takes
 * orders; its resting orders are canceled when it stops being open for good (closed or later).
 * The database's `MarketStatus` enum has these values; the GraphQL enum and the gateway's
 * validation are derived from this list.
 */
export const MARKET_STATUSES = ['open', 'paused', 'closed', 'determined', 'settled'] as const;
export type MarketStatus = (typeof MARKET_STATUSES)[number];

const NEXT: Record<MarketStatus, readonly MarketStatus[]> = {
  open: ['paused', 'closed', 'determined', 'settled'],
  paused: ['open', 'closed', 'determined', 'settled'],
  closed: ['determined', 'settled'],
  determined: ['determined', 'settled'],
  settled: [],
};

/** Whether a market may move from `from` to `to` (a determined market may be determined again: an amended result). */
export const canMoveTo = (from: MarketStatus, to: MarketStatus): boolean => NEXT[from].includes(to);

/** Whether orders are accepted. */
export const isTradable = (status: MarketStatus): boolean => status === 'open';

/** Whether its resting orders are to be canceled: trading has ended for good (a paused market may reopen, and keeps them). */
export const hasClosed = (status: MarketStatus): boolean => status === 'closed' || status === 'determined' || status === 'settled';
