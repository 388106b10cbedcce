/**
 * The terms every order is spoken in, by the planner, the analytics and every venue adapter alike:
 * the outcome it trades, buying or selling it, and how long it may rest.
 */
export type OutcomeSide = 'yes' | 'no';
export type OrderAction = 'buy' | 'sell';
/**
 * gtc rests until canceled; gtd rests until its `expiresAt` (the venue's own expiry: Kalshi
 * `expiration_time`, Polymarket GTD); ioc takes what it can and drops the rest; fok fills in full or not at all.
 */
export type VenueTimeInForce = 'gtc' | 'ioc' | 'fok' | 'gtd';

/** Whether an order of this time in force rests on the book for what it does not fill at once. */
export const restsOnBook = (timeInForce: VenueTimeInForce): boolean => timeInForce === 'gtc' || timeInForce === 'gtd';
