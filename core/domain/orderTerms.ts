/**
 * The terms every order is spoken in, by the planner, the analytics and every venue adapter alike:
 * the outcome it trades, buying or selling it, and how long it may rest.
 */
export type OutcomeSide = 'yes' | 'no';
export type OrderAction = 'buy' | 'sell';
export type VenueTimeInForce = 'gtc' | 'ioc' | 'fok';
